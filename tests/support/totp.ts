import { createHmac } from 'node:crypto';

// RFC 6238 (TOTP over RFC 4226's HOTP, HMAC-SHA-1, 30-second steps, six digits), written here from the RFCs so the
// tests check the server against an implementation of their own, as an authenticator app would.

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(text: string) {
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`Not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

export function base32Encode(data: Buffer) {
  const bits = [...data].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => BASE32[parseInt(chunk.padEnd(5, '0'), 2)]).join('');
}

/** The six-digit code an authenticator app shows for this base32 secret at `time`. */
export function totpCode(base32Secret: string, time = Date.now()) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(time / 30_000)));
  const digest = createHmac('sha1', base32Decode(base32Secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** The base32 secret of an otpauth:// address (what a QR code carries). */
export const secretOfOtpauthUri = (uri: string) => new URL(uri).searchParams.get('secret')!;
