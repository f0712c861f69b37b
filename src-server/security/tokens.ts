/**
 * Opaque tokens (sessions, two-factor challenges) and recovery codes. Only SHA-256 hashes are stored:
 * the values are 256-bit random (tokens) or 50-bit random single-use codes, so a fast hash suffices.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A new opaque token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token or code: SHA-256, hex. */
export function hashToken(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Ten fresh recovery codes like `k3m9q-x7f2a` (lower-case letters and digits, no look-alikes). */
export function newRecoveryCodes(count = 10): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed (any case, spaces or dashes) in the form that was hashed. */
export function normaliseRecoveryCode(code: string): string {
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : plain;
}
