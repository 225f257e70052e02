import type { FastifyInstance, FastifyRequest } from 'fastify';

/** True for an address of this machine's loopback interface (IPv4, IPv6 and IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string | undefined) {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** The headers by which a proxy says a request is someone else's (any of them, whatever its value). */
const FORWARDING_HEADER = /^(forwarded|x-forwarded-.+|x-real-ip|via)$/;

/** The names of the forwarding headers a request carries. */
export function forwardingHeadersOf(request: FastifyRequest) {
  return Object.keys(request.headers).filter((name) => FORWARDING_HEADER.test(name));
}

/** A Host header naming this machine: localhost (or a name under it), 127.x.x.x or [::1], with any port. */
function namesLoopbackHost(host: string | undefined) {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

/**
 * Whether a request comes from this machine by every measure: the socket and the client address (as trusted proxies
 * report it) are loopback, no proxy header of any kind is present, and the Host names this machine. A reverse proxy
 * on the same host connects from 127.0.0.1 too, so the address alone says nothing there; its forwarding headers or
 * the public host name give it away, and the Host check also turns away pages that rebind their DNS name to
 * 127.0.0.1. A proxy that sends none of these (nginx's bare `proxy_pass`) is indistinguishable: README says so.
 */
export function isLocalRequest(request: FastifyRequest) {
  return (
    isLoopbackAddress(request.raw.socket.remoteAddress) &&
    isLoopbackAddress(request.ip) &&
    forwardingHeadersOf(request).length === 0 &&
    namesLoopbackHost(request.headers.host)
  );
}

/**
 * Without TRUST_PROXY every forwarded request counts as its proxy's: all clients share one bucket of each per-address
 * limit, and the pages kept for this machine refuse them all. The first request that carries forwarding headers says
 * so in the log, once per process.
 */
export function warnOfUntrustedProxy(app: FastifyInstance) {
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned) return;
    const headers = forwardingHeadersOf(request);
    if (headers.length === 0) return;
    warned = true;
    request.log.warn(
      { from: request.raw.socket.remoteAddress, headers },
      'Requests arrive with forwarding headers but TRUST_PROXY is unset: every client behind that proxy shares one ' +
        'per-address limit, and /api/metrics and /dev/mailbox refuse them. Behind a reverse proxy, set TRUST_PROXY ' +
        "to the proxy's hop count or address (see README, Security).",
    );
  });
}
