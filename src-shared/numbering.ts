/**
 * Registration numbers of correspondence: `<prefix>-<year>-<sequence>` with the sequence zero-padded to six
 * digits (e.g. `IN-2026-000123`; a seventh digit appears past 999,999). The sequence restarts at 1 for each
 * codification and year; the server hands sequences out atomically (src-server/modules/correspondence).
 * Pure, so the client can show or parse a number the same way the server writes it.
 */

/** Digits the sequence is padded to. */
export const SEQUENCE_DIGITS = 6;

/** Formats a registration number; throws on a prefix, year or sequence no number could carry. */
export function formatRegistrationNumber(prefix: string, year: number, sequence: number): string {
  if (!/^[A-Z][A-Z0-9]{0,9}$/.test(prefix)) throw new RangeError(`bad prefix: ${prefix}`);
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`bad year: ${year}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`bad sequence: ${sequence}`);
  return `${prefix}-${year}-${String(sequence).padStart(SEQUENCE_DIGITS, '0')}`;
}

/** Reads a registration number back into its parts, or null when it is not one. */
export function parseRegistrationNumber(
  value: string,
): { prefix: string; year: number; sequence: number } | null {
  const match = /^([A-Z][A-Z0-9]{0,9})-(\d{4})-(\d{6,})$/.exec(value.trim());
  if (!match) return null;
  const sequence = Number(match[3]);
  if (!Number.isSafeInteger(sequence) || sequence < 1) return null;
  // Only the canonical padding: `IN-2026-0000123` is not a number we would have written.
  if (match[3]!.length > SEQUENCE_DIGITS && match[3]!.startsWith('0')) return null;
  return { prefix: match[1]!, year: Number(match[2]), sequence };
}
