import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../client.ts';
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

  it('answers the tools that reach it beside a full pool', async () => {
    const template = inject('databaseTemplate');
    const socketDir = mkdtempSync(path.join(os.tmpdir(), 'vh-socket-'));
    const handle = await openDatabase(
      { kind: 'embedded', socketDir, templateFile: template.kind === 'embedded' ? template.templateFile : undefined },
      { poolSize: 2 },
    );
    const held = await Promise.all([handle.pool.connect(), handle.pool.connect()]);
    const tools = Array.from({ length: 8 }, () => new pg.Client({ host: socketDir, user: 'postgres' }));
    try {
      const answers = await Promise.all(
        tools.map(async (tool) => {
          await tool.connect();
          return (await tool.query<{ one: number }>('select 1 as one')).rows[0]!.one;
        }),
      );
      expect(answers).toEqual(Array(8).fill(1));
    } finally {
      await Promise.all(tools.map((tool) => tool.end().catch(() => undefined)));
      for (const client of held) client.release();
      await handle.close();
    }
  }, 120_000);
});
