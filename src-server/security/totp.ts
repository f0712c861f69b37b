/**
 * TOTP per RFC 6238 with `otpauth`: HMAC-SHA-1, 30-second steps, 6 digits, one step of drift either way.
 * `matchStep` returns the time step a code belongs to, so the caller can accept each step once.
 */
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
const ISSUER = 'Sijill';

/** A new random 160-bit secret, base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label = 'user', digits = TOTP_DIGITS, algorithm = 'SHA1'): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm,
    digits,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The otpauth:// URI an authenticator app scans. */
export function totpUri(secretBase32: string, label: string): string {
  return totpOf(secretBase32, label).toString();
}

/** The time step of a moment. */
export function stepAt(timestampMs: number): number {
  return Math.floor(timestampMs / 1000 / TOTP_PERIOD);
}

/**
 * The time step `code` is valid for (within one step of now), or null. Only 6-digit strings are tried.
 */
export function matchStep(secretBase32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : stepAt(now) + delta;
}

/** Generates a code (tests and the RFC vectors): secret as raw bytes, any digits and algorithm. */
export function generateCode(options: {
  secret: Uint8Array;
  timestampMs: number;
  digits?: number;
  algorithm?: string;
}): string {
  const secret = new Secret({ buffer: Uint8Array.from(options.secret).buffer });
  return new TOTP({
    algorithm: options.algorithm ?? 'SHA1',
    digits: options.digits ?? TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret,
  }).generate({
    timestamp: options.timestampMs,
  });
}
