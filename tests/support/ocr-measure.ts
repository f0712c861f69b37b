/** How OCR is measured, in the tests and the OCR benchmark alike: the character error rate. */
import { distance } from 'fastest-levenshtein';

/** Whitespace collapsed and Arabic-Indic digits as ASCII: the only normalisation for comparing OCR. */
export function forComparison(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x6f0))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Edit distance between what was read and the reference, both compared as `forComparison` makes them. */
export function editErrors(read: string, reference: string): { errors: number; length: number } {
  const ref = forComparison(reference);
  return { errors: distance(forComparison(read), ref), length: ref.length };
}

/** Character error rate: edit distance over the reference's length. */
export function characterErrorRate(read: string, reference: string): number {
  const { errors, length } = editErrors(read, reference);
  return errors / length;
}
