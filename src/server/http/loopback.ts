/** True for an address of this machine's loopback interface (IPv4, IPv6 and IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string | undefined) {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1';
}
