// The chat benchmark's baseline: a bare Socket.IO relay with no database, run as its own process like the app.
// Each socket names its user in a `bench-user` cookie and joins that user's room; `message:send` is acknowledged
// and then emitted to the receiver. It answers /api/health, and /api/metrics with the same Node defaults as the app
// (event-loop delay from monitorEventLoopDelay), so the bench reads both the same way.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { Server } from 'socket.io';

const registry = new Registry();
collectDefaultMetrics({ register: registry });

const server = createServer((request, response) => {
  if (request.url === '/api/metrics') {
    void registry.metrics().then((text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text));
    return;
  }
  response.writeHead(request.url === '/api/health' ? 200 : 404).end();
});
const io = new Server(server, { serveClient: false });

io.use((socket, next) => {
  const userId = /bench-user=([\w-]+)/.exec(socket.request.headers.cookie ?? '')?.[1];
  if (!userId) return next(new Error('UNAUTHENTICATED'));
  socket.data.userId = userId;
  void socket.join(userId);
  next();
});

io.on('connection', (socket) => {
  socket.on('message:send', (payload: { clientId: string; receiverId: string; content: string }, ack) => {
    const message = {
      ...payload,
      id: randomUUID(),
      senderId: socket.data.userId as string,
      createdAt: new Date().toISOString(),
    };
    ack({ ok: true, message });
    io.to(payload.receiverId).emit('message:new', message);
  });
});

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => io.close(() => process.exit(0)));
