import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webPush from 'web-push';
import type { Config } from '../config.ts';
import { preparePrivateDir, PRIVATE_FILE_MODE } from './data-dir.ts';

export type VapidKeys = { publicKey: string; privateKey: string };

/**
 * The server's Web Push key pair (VAPID, P-256, base64url): from the config, else generated once and kept in the
 * data directory. Browsers' subscriptions are bound to the public key: a new pair would silence every device.
 */
export function resolveVapidKeys(config: Pick<Config, 'dataDir' | 'push'>): VapidKeys {
  if (config.push.keys) return config.push.keys;
  const file = path.join(config.dataDir, 'vapid-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as VapidKeys;
  preparePrivateDir(config.dataDir);
  const keys: VapidKeys = webPush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: PRIVATE_FILE_MODE });
  return keys;
}
