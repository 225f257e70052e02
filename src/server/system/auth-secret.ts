import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { preparePrivateDir, PRIVATE_FILE_MODE } from './data-dir.ts';

/** A stable secret for signing sessions: from the config, else generated once and kept in the data directory. */
export function resolveAuthSecret(config: Config) {
  if (config.auth.secret) return config.auth.secret;
  const file = path.join(config.dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  preparePrivateDir(config.dataDir);
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: PRIVATE_FILE_MODE });
  return secret;
}
