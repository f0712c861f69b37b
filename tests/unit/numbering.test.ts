/** Registration numbers: format, padding, the seventh digit, bad parts refused, and the round trip. */
import { describe, expect, it } from 'vitest';
import { formatRegistrationNumber, parseRegistrationNumber } from '../../src-shared/numbering';

describe('formatRegistrationNumber', () => {
  it('pads the sequence to six digits', () => {
    expect(formatRegistrationNumber('IN', 2026, 123)).toBe('IN-2026-000123');
    expect(formatRegistrationNumber('OUT', 2025, 1)).toBe('OUT-2025-000001');
    expect(formatRegistrationNumber('M2', 2026, 999_999)).toBe('M2-2026-999999');
  });
  it('grows past six digits instead of wrapping', () => {
    expect(formatRegistrationNumber('IN', 2026, 1_000_000)).toBe('IN-2026-1000000');
  });
  it('refuses what no number could carry', () => {
    expect(() => formatRegistrationNumber('in', 2026, 1)).toThrow(RangeError);
    expect(() => formatRegistrationNumber('', 2026, 1)).toThrow(RangeError);
    expect(() => formatRegistrationNumber('IN-X', 2026, 1)).toThrow(RangeError);
    expect(() => formatRegistrationNumber('IN', 26, 1)).toThrow(RangeError);
    expect(() => formatRegistrationNumber('IN', 2026, 0)).toThrow(RangeError);
    expect(() => formatRegistrationNumber('IN', 2026, 1.5)).toThrow(RangeError);
  });
});

describe('parseRegistrationNumber', () => {
  it('round-trips what format writes', () => {
    for (const [p, y, s] of [
      ['IN', 2026, 123],
      ['OUT', 1999, 1],
      ['MEMO', 2030, 1_234_567],
    ] as const) {
      expect(parseRegistrationNumber(formatRegistrationNumber(p, y, s))).toEqual({
        prefix: p,
        year: y,
        sequence: s,
      });
    }
  });
  it('answers null for anything else', () => {
    for (const v of [
      '',
      'IN-2026-123',
      'in-2026-000123',
      'IN-2026-000000',
      'IN-2026-0000123',
      'IN2026000123',
    ])
      expect(parseRegistrationNumber(v), v).toBeNull();
  });
});
