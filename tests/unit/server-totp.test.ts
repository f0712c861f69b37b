/** RFC 6238 Appendix B (SHA-1 rows, 8 digits) through the server's TOTP code and the independent one. */
import { describe, expect, it } from 'vitest';
import { generateCode, matchStep, newTotpSecret, stepAt } from '../../src-server/security/totp';
import { base32Decode, codeFor, totp } from '../api/support/rfc6238';

const SECRET = Buffer.from('12345678901234567890', 'ascii');
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('RFC 6238 Appendix B (SHA-1)', () => {
  it.each(VECTORS)('T=%i gives %s with the server TOTP', (t, expected) => {
    expect(generateCode({ secret: SECRET, timestampMs: t * 1000, digits: 8 })).toBe(expected);
  });
  it.each(VECTORS)('T=%i gives %s with the independent implementation', (t, expected) => {
    expect(totp(SECRET, t, 8)).toBe(expected);
  });
});

describe('server TOTP acceptance', () => {
  it('accepts the current code and one step of drift, refuses two', () => {
    const secret = newTotpSecret();
    const now = Date.now();
    expect(matchStep(secret, codeFor(secret, 0), now)).not.toBeNull();
    expect(matchStep(secret, totp(base32Decode(secret), now / 1000 - 30), now)).toBe(stepAt(now) - 1);
    expect(matchStep(secret, totp(base32Decode(secret), now / 1000 + 30), now)).toBe(stepAt(now) + 1);
    expect(matchStep(secret, totp(base32Decode(secret), now / 1000 + 90), now)).toBeNull();
    expect(matchStep(secret, 'abcdef', now)).toBeNull();
  });
});
