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

/** A piece of a reference text and the class its characters are scored in (e.g. `ar letters`). */
export interface ClassedPart {
  text: string;
  cls: string;
}

/** `forComparison`, and the Arabic thousands and decimal separators as their Latin counterparts. */
const forNumberComparison = (text: string) =>
  forComparison(text)
    .replace(/\u066c/g, ',')
    .replace(/\u066b/g, '.');

/**
 * Edit errors of `read` against a reference given as classed parts (joined by spaces), told apart by class:
 * the two texts are aligned (Levenshtein with its path), a substituted or dropped character counts
 * against the class of the reference character, an inserted one against the class of the reference
 * character before it (the first's, at the start). The spaces between parts count with the part before.
 * Both texts are compared as `forComparison` makes them, with ٬ and ٫ as , and .
 */
export function classedErrors(
  read: string,
  parts: ClassedPart[],
): Map<string, { errors: number; length: number }> {
  const classOf: string[] = [];
  let reference = '';
  parts.forEach((part, i) => {
    const text = forNumberComparison(part.text);
    if (!text) return;
    if (reference && i > 0) {
      reference += ' ';
      classOf.push(classOf.at(-1)!);
    }
    reference += text;
    for (let k = 0; k < text.length; k += 1) classOf.push(part.cls);
  });
  const hyp = forNumberComparison(read);
  const n = reference.length;
  const m = hyp.length;
  // Full table (pages are a few thousand characters at most).
  const width = m + 1;
  const cost = new Uint32Array((n + 1) * width);
  for (let i = 0; i <= n; i += 1) cost[i * width] = i;
  for (let j = 0; j <= m; j += 1) cost[j] = j;
  for (let i = 1; i <= n; i += 1)
    for (let j = 1; j <= m; j += 1) {
      const diagonal = cost[(i - 1) * width + j - 1]! + (reference[i - 1] === hyp[j - 1] ? 0 : 1);
      cost[i * width + j] = Math.min(diagonal, cost[(i - 1) * width + j]! + 1, cost[i * width + j - 1]! + 1);
    }
  const totals = new Map<string, { errors: number; length: number }>();
  const total = (cls: string) => {
    let t = totals.get(cls);
    if (!t) totals.set(cls, (t = { errors: 0, length: 0 }));
    return t;
  };
  for (const cls of classOf) total(cls).length += 1;
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = cost[i * width + j]!;
    if (
      i > 0 &&
      j > 0 &&
      here === cost[(i - 1) * width + j - 1]! + (reference[i - 1] === hyp[j - 1] ? 0 : 1)
    ) {
      if (reference[i - 1] !== hyp[j - 1]) total(classOf[i - 1]!).errors += 1;
      i -= 1;
      j -= 1;
    } else if (i > 0 && here === cost[(i - 1) * width + j]! + 1) {
      total(classOf[i - 1]!).errors += 1;
      i -= 1;
    } else {
      if (classOf.length) total(classOf[Math.max(0, i - 1)]!).errors += 1;
      j -= 1;
    }
  }
  return totals;
}
