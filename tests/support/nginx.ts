import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findExecutable } from './executables.ts';

/** The nginx binary (Debian's package installs it in /usr/sbin), or undefined when this machine has none. */
export const findNginx = () => findExecutable('nginx', ['/usr/sbin']);

export const MISSING_NGINX = 'needs nginx: apt-get install nginx-light (.ci/run installs it)';

/**
 * deploy/nginx.conf as shipped, with its `listen` on `port` of loopback (e.g. from freePort, known to the servers
 * as their PUBLIC_URL) and each upstream's servers replaced by `upstreamPorts`, in an nginx of the test's own (its
 * files in a temporary folder). `stop()` it at the end.
 */
export async function startNginx(binary: string, { port, upstreamPorts }: { port: number; upstreamPorts: number[] }) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vh-nginx-'));
  const shipped = await readFile(path.join(import.meta.dirname, '../../deploy/nginx.conf'), 'utf8');
  const site = shipped
    .replace(/^\s*listen 80;$/m, `    listen 127.0.0.1:${port};`)
    .replace(/((?:^\s*server 127\.0\.0\.1:\d+[^\n]*\n)+)/gm, (servers) => {
      const options = /:\d+( [^;]*);/.exec(servers)?.[1] ?? '';
      return upstreamPorts.map((upstream) => `    server 127.0.0.1:${upstream}${options};\n`).join('');
    });
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${path.join(dir, kind)};`)
    .join('\n  ');
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
worker_processes 1;
events {}
http {
  access_log off;
  ${temp}
${site}
}
`,
  );
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with code ${child.exitCode}:\n${output}`);
    try {
      await fetch(`${url}/livez`);
      break;
    } catch {
      if (tries > 100) throw new Error(`nginx did not answer:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
