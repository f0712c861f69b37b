/**
 * The stamp on a letter's final PDF (issue 27): a white box in a corner of the first page carrying the
 * heading (صادر / Outgoing), the organisation's names, the number, the date in Hijri (Umm al-Qura) and
 * Gregorian, the signatory, and a QR code of the verification link. The author's PDF is loaded as it is
 * and only the first page gets new content; every other page is left untouched.
 *
 * The text is set by the labels' Typesetter (src-server/modules/labels/typeset.ts): Arabic shaped with its
 * marks in place and a text layer that reads back in logical order, so the stamp is found by search and
 * read by OCR as well as by eye. The QR code is vector (labels/codes.ts).
 */
import {
  EncryptedPDFError,
  PDFDocument,
  concatTransformationMatrix,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  type PDFPage,
} from 'pdf-lib';
import { arabicIndicDigits } from '../labels';
import { MM, QR_QUIET, drawQr, qrSideModules } from '../labels/codes';
import { Typesetter, type TextStyle } from '../labels/typeset';
import type { DigitStyle, LetterFacts, StampSettings } from './types';

/** Distance of the stamp from the visible page's edges. */
const EDGE = 12 * MM;
/** The stamp's width on a page wide enough for it (A4, Letter, A5); smaller pages get it scaled down. */
const WIDTH = 92 * MM;
/** Inner padding of the box. */
const PAD = 2.5 * MM;
/** The QR code's module: at least 0.5 mm (a phone reads it from a printed page), larger for short links. */
const QR_MIN_MODULE = 0.5 * MM;
const QR_MAX_MODULE = 0.8 * MM;
/** The QR code's target side, quiet zone included. */
const QR_TARGET = 24 * MM;
const HEADING_SIZE = 10;
const BODY_SIZE = 7;
const LEADING = 1.42;

/**
 * The stamp's fixed words, in both languages. Kept here rather than in the server catalogues: the stamp
 * always carries both languages whatever the reader's language.
 */
const WORDS = {
  numberAr: 'الرقم',
  numberEn: 'No.',
  dateAr: 'التاريخ',
  dateEn: 'Date',
  correspondingAr: 'الموافق',
  gregorianAr: 'م',
  signedAr: 'الموقع',
  signedEn: 'Signed by',
};

/** The number in Arabic-Indic digits, set right to left in the Arabic font (as labels/index.ts does). */
const ARABIC_NUMBER: Omit<TextStyle, 'size'> = { bold: true, dir: 'rtl', script: 'arabic' };

/** The stamp's date in both calendars: Arabic lines in the chosen digits, English lines in Western ones. */
export function stampDates(date: Date, digits: DigitStyle) {
  if (Number.isNaN(date.getTime())) throw new RangeError('the stamp needs a valid approval date');
  const nu = digits === 'arabic-indic' ? 'arab' : 'latn';
  const long = { day: 'numeric', month: 'long', year: 'numeric' } as const;
  return {
    /** e.g. ١٧ جمادى الآخرة ١٤٤٨ هـ */
    hijriAr: new Intl.DateTimeFormat(`ar-SA-u-ca-islamic-umalqura-nu-${nu}`, long).format(date),
    /** e.g. ٢٧ نوفمبر ٢٠٢٦ م */
    gregorianAr: `${new Intl.DateTimeFormat(`ar-u-ca-gregory-nu-${nu}`, long).format(date)} ${WORDS.gregorianAr}`,
    /** e.g. Jumada II 17, 1448 AH */
    hijriEn: new Intl.DateTimeFormat('en-u-ca-islamic-umalqura', long).format(date),
    /** e.g. 27 November 2026 */
    gregorianEn: new Intl.DateTimeFormat('en-GB', long).format(date),
  };
}

/** Where the visible page is and how it is turned: enough to draw in its upright coordinates. */
export interface View {
  /** The page as it is shown, in points: width and height after the rotation. */
  width: number;
  height: number;
  /** Maps upright coordinates (origin at the shown page's bottom left) to the page's own: a PDF `cm`. */
  matrix: [number, number, number, number, number, number];
}

/**
 * The visible part of a page (its CropBox inside its MediaBox) as a viewer shows it, turned by /Rotate
 * (clockwise, in quarter turns): drawing through `matrix` puts things upright where the reader sees them.
 */
export function viewOf(page: PDFPage): View {
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  const x0 = Math.max(media.x, crop.x);
  const y0 = Math.max(media.y, crop.y);
  const x1 = Math.min(media.x + media.width, crop.x + crop.width);
  const y1 = Math.min(media.y + media.height, crop.y + crop.height);
  // A CropBox outside the MediaBox is ignored by readers (they show the MediaBox): do the same.
  const [left, bottom, right, top] =
    x1 > x0 && y1 > y0 ? [x0, y0, x1, y1] : [media.x, media.y, media.x + media.width, media.y + media.height];
  const w = right - left;
  const h = top - bottom;
  const turns = ((Math.round(page.getRotation().angle / 90) % 4) + 4) % 4;
  switch (turns) {
    case 1: // a quarter turn clockwise: the shown page's top is the page's left edge
      return { width: h, height: w, matrix: [0, 1, -1, 0, right, bottom] };
    case 2:
      return { width: w, height: h, matrix: [-1, 0, 0, -1, right, top] };
    case 3:
      return { width: h, height: w, matrix: [0, -1, 1, 0, left, top] };
    default:
      return { width: w, height: h, matrix: [1, 0, 0, 1, left, bottom] };
  }
}

/** Multiplies two PDF matrices: `a` applied first, then `b`. */
export function times(a: View['matrix'], b: View['matrix']): View['matrix'] {
  return [
    a[0] * b[0] + a[1] * b[2],
    a[0] * b[1] + a[1] * b[3],
    a[2] * b[0] + a[3] * b[2],
    a[2] * b[1] + a[3] * b[3],
    a[4] * b[0] + a[5] * b[2] + b[4],
    a[4] * b[1] + a[5] * b[3] + b[5],
  ];
}

/** A letter file that cannot be stamped whatever the attempt: encrypted, unreadable, without pages. */
export class UnstampableLetter extends Error {
  override name = 'UnstampableLetter';
}

async function loadLetter(original: Uint8Array): Promise<PDFDocument> {
  let pdf: PDFDocument;
  let pages: number;
  try {
    // The author's metadata (producer, dates) is theirs: loading must not rewrite it.
    pdf = await PDFDocument.load(original, { ignoreEncryption: false, updateMetadata: false });
    // A damaged file may load and only fail when its page tree is looked at.
    pages = pdf.getPageCount();
  } catch (error) {
    if (error instanceof EncryptedPDFError)
      throw new UnstampableLetter('The letter PDF is encrypted (password protected) and cannot be stamped', {
        cause: error,
      });
    const detail = error instanceof Error ? error.message : String(error);
    throw new UnstampableLetter(`The letter file is not a readable PDF and cannot be stamped (${detail})`, {
      cause: error,
    });
  }
  if (pages === 0) throw new UnstampableLetter('The letter PDF has no pages: there is nothing to stamp');
  return pdf;
}

/** One line of the stamp's body. */
type Line =
  | { kind: 'text'; text: string; style: TextStyle }
  /** A label in each language at each edge, the value between them. */
  | { kind: 'pair'; ar: string; en: string; value: string; style: TextStyle };

/**
 * Stamps the first page of the letter `original` and answers the new PDF (saved without object streams,
 * so that a signature placeholder can be added afterwards) and its page count. Throws an Error saying why
 * when the file is encrypted, not a PDF or has no pages.
 */
export async function stampPdf(
  original: Uint8Array,
  facts: LetterFacts,
  settings: StampSettings,
  qrText: string,
): Promise<{ bytes: Uint8Array; pages: number }> {
  if (!qrText) throw new RangeError('the stamp needs the verification link for its QR code');
  const pdf = await loadLetter(original);
  const page = pdf.getPage(0);
  // Wraps the page's own content in q … Q, so that a transformation it leaves behind does not move the stamp.
  page.node.normalize();
  const ts = await Typesetter.create(pdf);

  const arabicDigits = settings.digits === 'arabic-indic';
  const d = stampDates(facts.approvedAt, settings.digits);
  const numberStyle: TextStyle = arabicDigits
    ? { ...ARABIC_NUMBER, size: BODY_SIZE + 1 }
    : { size: BODY_SIZE + 1, bold: true, dir: 'ltr' };
  const person = (name: string, job: string | null) => (job?.trim() ? `${name} — ${job.trim()}` : name);
  const lines: Line[] = [
    { kind: 'text', text: facts.organisation.ar, style: { size: BODY_SIZE + 1, bold: true, dir: 'rtl' } },
    { kind: 'text', text: facts.organisation.en, style: { size: BODY_SIZE, bold: true, dir: 'ltr' } },
    {
      kind: 'pair',
      ar: WORDS.numberAr,
      en: WORDS.numberEn,
      value: arabicDigits ? arabicIndicDigits(facts.number) : facts.number,
      style: numberStyle,
    },
    {
      kind: 'text',
      text: `${WORDS.dateAr}: ${d.hijriAr} ${WORDS.correspondingAr} ${d.gregorianAr}`,
      style: { size: BODY_SIZE, dir: 'rtl' },
    },
    {
      kind: 'text',
      text: `${WORDS.dateEn}: ${d.hijriEn} · ${d.gregorianEn}`,
      style: { size: BODY_SIZE, dir: 'ltr' },
    },
    {
      kind: 'text',
      text: `${WORDS.signedAr}: ${person(facts.signatory.nameAr, facts.signatory.jobAr)}`,
      style: { size: BODY_SIZE, dir: 'rtl' },
    },
    {
      kind: 'text',
      text: `${WORDS.signedEn}: ${person(facts.signatory.nameEn, facts.signatory.jobEn)}`,
      style: { size: BODY_SIZE, dir: 'ltr' },
    },
  ];

  // The box, in its own coordinates (origin at its bottom left, upright).
  const qrModules = qrSideModules(qrText);
  const module = Math.min(QR_MAX_MODULE, Math.max(QR_MIN_MODULE, QR_TARGET / qrModules));
  const qrSide = qrModules * module;
  const quiet = QR_QUIET * module;
  const headingHeight = HEADING_SIZE * 1.5;
  const bodyHeight = lines.reduce((sum, line) => sum + line.style.size * LEADING, 0);
  // The QR code's dark modules line up with the body; its quiet zone may reach into the padding.
  const bodyBlock = Math.max(bodyHeight, qrSide - 2 * quiet);
  const height = PAD + headingHeight + 1.5 * MM + bodyBlock + PAD;
  const width = WIDTH;

  // Where the box stands: its corner ~12 mm from the visible page's edges, "start" the side the letter's
  // writing starts from. A page too small for it gets it scaled down to fit.
  const view = viewOf(page);
  const scale = Math.min(1, (view.width - 2 * EDGE) / width, (view.height - 2 * EDGE) / height);
  if (!(scale > 0.2)) throw new RangeError('the letter page is too small to carry the stamp');
  const [vertical, side] = settings.corner.split('-') as ['top' | 'bottom', 'start' | 'end'];
  const right = (side === 'start') === (settings.direction === 'rtl');
  const boxX = right ? view.width - EDGE - width * scale : EDGE;
  const boxY = vertical === 'top' ? view.height - EDGE - height * scale : EDGE;
  const matrix = times([scale, 0, 0, scale, boxX, boxY], view.matrix);

  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...matrix));
  page.drawRectangle({
    x: 0,
    y: 0,
    width,
    height,
    color: rgb(1, 1, 1),
    borderColor: rgb(0.15, 0.15, 0.15),
    borderWidth: 0.8,
  });

  // Heading band: Arabic at the right, English at the left, a rule under them.
  const headingBase = height - PAD - HEADING_SIZE * 1.05;
  const half = width / 2 - PAD - 2 * MM;
  ts.draw(
    page,
    settings.headingAr,
    { x: width - PAD, y: headingBase, align: 'right', maxWidth: half, minSize: 6 },
    { size: HEADING_SIZE, bold: true, dir: 'rtl' },
  );
  ts.draw(
    page,
    settings.headingEn,
    { x: PAD, y: headingBase, align: 'left', maxWidth: half, minSize: 6 },
    { size: HEADING_SIZE, bold: true, dir: 'ltr' },
  );
  const ruleY = height - PAD - headingHeight;
  page.drawLine({
    start: { x: PAD, y: ruleY },
    end: { x: width - PAD, y: ruleY },
    thickness: 0.5,
    color: rgb(0.35, 0.35, 0.35),
  });

  // The QR code at the box's far side from where the writing starts; the body beside it.
  const bodyTop = ruleY - 1.5 * MM;
  const qrLeft = settings.direction === 'rtl';
  const qrX = qrLeft ? PAD - quiet : width - PAD - qrSide + quiet;
  drawQr(page, qrText, qrX, bodyTop + quiet - qrSide, module);
  const textLeft = qrLeft ? qrX + qrSide - quiet + 2 * MM : PAD;
  const textRight = qrLeft ? width - PAD : qrX + quiet - 2 * MM;
  const textWidth = textRight - textLeft;
  // The body's lines spread over the block when the QR code is the taller of the two.
  const gap = (bodyBlock - bodyHeight) / lines.length;
  let y = bodyTop;
  for (const line of lines) {
    const step = line.style.size * LEADING + gap;
    const baseline = y - step / 2 - line.style.size * 0.32;
    if (line.kind === 'text') {
      const rtl = line.style.dir === 'rtl';
      ts.draw(
        page,
        line.text,
        {
          x: rtl ? textRight : textLeft,
          y: baseline,
          align: rtl ? 'right' : 'left',
          maxWidth: textWidth,
          minSize: 4.5,
        },
        line.style,
      );
    } else {
      const label: TextStyle = { size: BODY_SIZE, dir: 'rtl' };
      const arLabel = ts.draw(page, `${line.ar}:`, { x: textRight, y: baseline, align: 'right' }, label);
      const enLabel = ts.draw(
        page,
        line.en,
        { x: textLeft, y: baseline, align: 'left' },
        { ...label, dir: 'ltr' },
      );
      const from = textLeft + enLabel.width + 2 * MM;
      const to = textRight - arLabel.width - 2 * MM;
      ts.draw(
        page,
        line.value,
        { x: (from + to) / 2, y: baseline, align: 'center', maxWidth: to - from, minSize: 4.5 },
        line.style,
      );
    }
    y -= step;
  }
  page.pushOperators(popGraphicsState());

  await ts.finish();
  const bytes = await pdf.save({ useObjectStreams: false });
  return { bytes, pages: pdf.getPageCount() };
}
