/**
 * An independent RFC 6238 TOTP (HMAC-SHA-1 via node:crypto, no otpauth), so the tests check the server's
 * codes against a second implementation, as an authenticator app would.
 */
import { createHmac } from 'node:crypto';

/** Decodes RFC 4648 base32 (no padding needed). */
export function base32Decode(input: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of input.replace(/=+$/, '').toUpperCase()) {
    const idx = alphabet.indexOf(ch);
    if (idx < 0) throw new Error(`bad base32 character ${ch}`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The TOTP of `secret` at `unixSeconds` (30-second steps). */
export function totp(
  secret: Buffer,
  unixSeconds: number,
  digits = 6,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const mac = createHmac(algorithm, secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary =
    ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 6-digit code of a base32 secret, `offsetSteps` steps from now. */
export function codeFor(secretBase32: string, offsetSteps = 0): string {
  return totp(base32Decode(secretBase32), Date.now() / 1000 + offsetSteps * 30);
}

/**
 * Waits, when the current 30-second step ends within `margin` ms, for the next one to begin: a test that
 * reasons about "this step's code" and "the next step's code" must not straddle a boundary (it would see
 * the step change under it). Not a speed limit: it only ever waits, at most `margin` ms.
 */
export async function awayFromStepBoundary(margin = 8_000): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
