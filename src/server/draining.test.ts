import { describe, expect, it, vi } from 'vitest';
import { signUpStudent, startTestServerProcess } from '../../tests/support/server-process.ts';
import { connectSocket } from '../../tests/support/socket-client.ts';
import { startUpload } from '../../tests/support/slow-upload.ts';

// SIGTERM to a real server process: it reports not ready while it still serves, then ends its sockets' connections
// (clients reconnect by themselves), takes no new connection, finishes the request in flight and exits; or exits
// within SHUTDOWN_TIMEOUT_MS whatever holds it.

const readiness = async (url: string) => {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, ...((await response.json()) as { draining: boolean }) };
};

describe('draining on SIGTERM', () => {
  it('turns not ready while still serving, ends socket connections, refuses new ones, finishes the request in flight and exits 0', async () => {
    const drainDelayMs = 2_000;
    const server = await startTestServerProcess({ SHUTDOWN_DRAIN_DELAY_MS: String(drainDelayMs) });
    try {
      expect(await readiness(server.url)).toMatchObject({ status: 200, ready: true, draining: false });
      const { cookie } = await signUpStudent(server.url);
      const socket = await connectSocket(server.url, { cookie });
      const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      const upload = startUpload(server.url, cookie);
      // The upload has reached the server (its temporary file exists) before the signal.
      await new Promise((resolve) => setTimeout(resolve, 300));

      const signalled = Date.now();
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await vi.waitFor(async () => expect(await readiness(server.url)).toMatchObject({ status: 503, draining: true }));
      // Still serving meanwhile: the proxy may send work until it has seen the 503.
      expect((await fetch(`${server.url}/livez`)).status).toBe(200);
      expect(socket.connected).toBe(true);

      // Not a Socket.IO disconnect (after which a client stays away) but a lost transport: the client reconnects.
      expect(await disconnected).toBe('transport close');
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(drainDelayMs);
      await vi.waitFor(async () => expect(fetch(`${server.url}/livez`)).rejects.toThrow(), { timeout: 5_000 });

      expect((await upload.finish()).status).toBe(201);
      expect(await exited).toBe(0);
      expect(server.output()).not.toMatch(/shutdown took too long/);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('exits within SHUTDOWN_TIMEOUT_MS when a request never ends', async () => {
    const server = await startTestServerProcess({ SHUTDOWN_DRAIN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '1500' });
    try {
      const { cookie } = await signUpStudent(server.url);
      startUpload(server.url, cookie).answer.catch(() => undefined); // cut off when the process exits
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalled = Date.now();
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      expect(await exited).toBe(1);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1_500);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(server.output()).toMatch(/shutdown took too long/);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
