import { createHash } from 'node:crypto';

/**
 * The id Chrome gives an extension whose manifest has `key` (base64 DER of its public key): the first 128 bits of the
 * key's SHA-256, in hexadecimal written with the letters a–p instead of 0–f.
 */
export function chromeExtensionId(key: string): string {
  const hex = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode('a'.charCodeAt(0) + Number.parseInt(digit, 16))).join('');
}
