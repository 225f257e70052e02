import { chmodSync, mkdirSync } from 'node:fs';

/**
 * The data directory holds the session secret, the dev outbox (confirmation and reset links) and every upload:
 * only the server's own user may enter it. An existing directory is tightened too.
 */
export function preparePrivateDir(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Mode of every file the server writes into the data directory. */
export const PRIVATE_FILE_MODE = 0o600;
