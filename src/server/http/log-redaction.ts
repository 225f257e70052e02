import type { FastifyRequest } from 'fastify';

// Reset and confirmation links carry their token in the path or the query: whoever reads the log must not get it.
const TOKEN_IN_PATH = /(\/reset-password\/)[^/?#]+/g;
const TOKEN_IN_QUERY = /([?&](?:token|code)=)[^&#]*/gi;

/** The URL with the secrets of reset and confirmation links replaced. */
export function redactUrl(url: string) {
  return url.replace(TOKEN_IN_PATH, '$1[redacted]').replace(TOKEN_IN_QUERY, '$1[redacted]');
}

/** Fastify's request log line, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}
