import { lookup } from 'node:dns/promises';
import { lookup as lookupCallback, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// A push endpoint is user input: the server would post to any address a subscription names. Only https addresses
// of public hosts are taken, at subscription and again at each send (a name may resolve elsewhere later).

/** Addresses no push service has: this host, private networks, link-local, shared, documentation and multicast. */
const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string) {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  return !notPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether the server may post to this endpoint: an https URL without credentials whose host resolves only to public
 * addresses; or, in tests, one at the origin they named.
 */
export async function isAllowedPushEndpoint(endpoint: string, { testOrigin }: { testOrigin: string | null }) {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (testOrigin !== null && url.origin === testOrigin) return true;
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = hostOf(url);
  if (isIP(host)) return isPublicAddress(host);
  try {
    const addresses = await lookup(host, { all: true, order: 'verbatim' });
    return addresses.length > 0 && addresses.every(({ address }) => isPublicAddress(address));
  } catch {
    return false;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for the sender's connections that refuses a name resolving to an address that is not public, so that a
 * name changed after subscribing cannot turn a push into a request to the server's own network.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find(({ address }) => !isPublicAddress(address));
    if (refused) {
      const notAllowed: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${refused.address}, not public`);
      notAllowed.code = 'EPUSHNOTPUBLIC';
      return callback(notAllowed, []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first!.address, first!.family);
  });
}
