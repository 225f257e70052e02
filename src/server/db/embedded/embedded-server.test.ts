import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { startEmbeddedServer } from './embedded-server.ts';

describe('embedded database server', () => {
  it('keeps its socket in a directory only the server’s own user may enter', async () => {
    const template = inject('databaseTemplate');
    const base = mkdtempSync(path.join(os.tmpdir(), 'vh-socket-'));
    // A data directory with a path too long for a unix socket: the socket goes to a directory of its own in the
    // temp dir, where the others who use the machine could otherwise reach it.
    const server = await startEmbeddedServer({
      socketDir: path.join(base, 'd'.repeat(100)),
      templateFile: template.kind === 'embedded' ? template.templateFile : undefined,
    });
    try {
      expect(server.socketDir.startsWith(base)).toBe(false);
      expect(statSync(server.socketDir).mode & 0o777).toBe(0o700);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
