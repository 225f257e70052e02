import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { BackupError } from './archive.ts';

// A PostgreSQL database is backed up by the server's own tools: pg_dump in its custom format (a consistent snapshot
// that does not block writers) and pg_restore in one transaction.

const run = promisify(execFile);

/** Debian and Ubuntu install each major version's tools here, and only some of them on PATH. */
const VERSIONED_TOOLS = '/usr/lib/postgresql';

async function versionOf(command: string) {
  try {
    const { stdout } = await run(command, ['--version']);
    const [major = 0, minor = 0] = (/(\d+)(?:\.(\d+))?/.exec(stdout) ?? []).slice(1).map(Number);
    return major * 1000 + minor;
  } catch {
    return null;
  }
}

/** The newest `pg_dump` or `pg_restore` on PATH or in /usr/lib/postgresql/<version>/bin: newer ones read older servers. */
async function findTool(name: 'pg_dump' | 'pg_restore') {
  const versioned = await readdir(VERSIONED_TOOLS).catch(() => [] as string[]);
  const candidates = [name, ...versioned.map((version) => path.join(VERSIONED_TOOLS, version, 'bin', name))];
  let best: { command: string; version: number } | undefined;
  for (const command of candidates) {
    const version = await versionOf(command);
    if (version !== null && (!best || version > best.version)) best = { command, version };
  }
  if (!best) {
    throw new BackupError(
      `${name} was not found on PATH or in ${VERSIONED_TOOLS}/*/bin. Install PostgreSQL's client tools of your ` +
        `server's version or newer (Debian and Ubuntu: apt install postgresql-client), then run this again.`,
    );
  }
  return best.command;
}

/** The URL without its password, which goes to the tools in the environment instead of a visible argument. */
function connectionFor(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function runTool(name: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string) {
  const command = await findTool(name);
  const { dbname, env } = connectionFor(databaseUrl);
  try {
    await run(command, [...args, `--dbname=${dbname}`], { env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new BackupError(`${name} failed: ${(stderr ?? String(error)).trim()}`);
  }
}

export function dumpPostgres(databaseUrl: string, file: string) {
  return runTool('pg_dump', ['--format=custom', `--file=${file}`], databaseUrl);
}

/** All of it or nothing: one transaction, stopped at the first error. */
export function restorePostgres(databaseUrl: string, file: string) {
  return runTool(
    'pg_restore',
    ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', file],
    databaseUrl,
  );
}

/** A database with no table, view or sequence of its own (and no schema beyond `public`) is empty. */
export async function assertEmptyPostgres(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ objects: number }>(
      `select (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%')
            + (select count(*) from pg_namespace
                where nspname not in ('public', 'pg_catalog', 'information_schema')
                  and nspname not like 'pg_toast%' and nspname not like 'pg_temp%')
              as objects`,
    );
    if (Number(rows[0]!.objects) > 0) {
      throw new BackupError(
        'The database of DATABASE_URL is not empty: a backup is restored only into an empty database ' +
          '(create a new one and point DATABASE_URL at it). Nothing was written.',
      );
    }
  } finally {
    await client.end();
  }
}
