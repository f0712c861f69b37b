/**
 * The facts shared by the parts of a letter's final PDF (issue 27): the stamp (stamp.ts), the signature
 * (signature.ts), the verification page (verify-page.ts) and the e-mail dispatch (mail.ts).
 */

import { DIGIT_STYLES, STAMP_CORNERS } from '../../../src-shared/api/final';

export { DIGIT_STYLES, STAMP_CORNERS };
/** How the stamp writes numbers: Arabic-Indic (٠١٢) or Western (012) digits, per the organisation. */
export type DigitStyle = (typeof DIGIT_STYLES)[number];
/** The corner of the first page the stamp stands in; "start" is where the letter's text starts. */
export type StampCorner = (typeof STAMP_CORNERS)[number];

/** What the stamp says and the verification page shows. */
export interface LetterFacts {
  organisation: { ar: string; en: string };
  /** The outgoing number as stored (Western digits), e.g. `OUT-2026-000012`. */
  number: string;
  /** The signatory's approval: the stamp's date, in Hijri (Umm al-Qura) and Gregorian. */
  approvedAt: Date;
  signatory: { nameAr: string; nameEn: string; jobAr: string | null; jobEn: string | null };
  kind: 'outgoing' | 'memo';
}

/** Where and how the stamp is drawn (the organisation's settings). */
export interface StampSettings {
  corner: StampCorner;
  /** The letter's writing direction, which decides where "start" is. */
  direction: 'rtl' | 'ltr';
  digits: DigitStyle;
  /** The stamp's heading in each language (defaults: صادر / Outgoing, مذكرة داخلية / Internal memo). */
  headingAr: string;
  headingEn: string;
}
