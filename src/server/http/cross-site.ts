import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Mail clients post a one-click unsubscribe (RFC 8058) from no page of ours; its signed token is its authority.
const POSTED_FROM_ANYWHERE = new Set(['/api/notifications/unsubscribe']);

/** The origins our own pages are served from: the public URL, and the host this request was sent to. */
function isOwnOrigin(origin: string, request: FastifyRequest, publicOrigin: string) {
  return origin === publicOrigin || origin === `${request.protocol}://${request.host}`;
}

/**
 * Requests that change something must come from our own pages. Browsers say where a request comes from
 * (Sec-Fetch-Site, Origin) and a page cannot forge either; clients that send neither (curl, the app's tests) are not
 * browsers and so cannot be tricked into a request by another site. Cookies are SameSite=Lax as well: this also
 * covers old browsers and sibling sites.
 */
export function registerCrossSiteGuard(app: FastifyInstance, publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || POSTED_FROM_ANYWHERE.has(request.routeOptions.url ?? '')) return;
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new AppError('CROSS_SITE_REQUEST');
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, request, publicOrigin)) throw new AppError('CROSS_SITE_REQUEST');
  });
}
