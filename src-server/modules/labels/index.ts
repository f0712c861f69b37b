/**
 * Printed paper for registered correspondence (issue 26): registration stickers, cover sheets and
 * separator sheets, as PDF files. Pure makers — no database, no HTTP; the routes hand them a document's
 * printable facts. Every text is in Arabic and English (both catalogues, locales/{ar,en}/server.json
 * `labels`); the codes carry what src-shared/paper-codes.ts says the scanner reads.
 */
import { PDFDocument, type PDFPage } from 'pdf-lib';
import type { Direction } from '../../../src-shared/api/correspondence';
import {
  SEPARATOR_PAYLOAD,
  coverPayload,
  stickerPayload,
  type LabelSize,
} from '../../../src-shared/paper-codes';
import { translate } from '../../i18n';
import { MM, code128WidthModules, drawCode128, drawQr, qrSideModules, CODE128_QUIET } from './codes';
import { Typesetter, type TextStyle } from './typeset';

export { LABEL_SIZES, type LabelSize } from '../../../src-shared/paper-codes';

export interface LabelDocument {
  /** Registration number, e.g. IN-2026-000123 (src-shared/numbering.ts). */
  number: string;
  /** ISO timestamp of the registration; its day is taken in the server's time zone. */
  registeredAt: string;
  direction: Direction;
  /** The organisation's name in both languages. */
  entity: { ar: string; en: string };
  /** Printed on the cover sheet only; any language. */
  subject?: string;
}

const A4 = { width: 210 * MM, height: 297 * MM };
/** The A4 label sheet: 3 columns × 8 rows of 70×37 mm, no side margins, 0.5 mm at the top. */
const SHEET = { columns: 3, rows: 8, width: 70 * MM, height: 37 * MM, top: 0.5 * MM };

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
/** Western digits written in Arabic-Indic digits (IN-2026-000123 → IN-٢٠٢٦-٠٠٠١٢٣). */
export const arabicIndicDigits = (text: string) => text.replace(/[0-9]/g, (d) => ARABIC_INDIC[Number(d)]!);

/** Latin text kept in one left-to-right piece inside an Arabic line (27 Nov 2026, not Nov 2026 27). */
const isolateLtr = (text: string) => `\u2066${text}\u2069`;

/**
 * The number in Arabic-Indic digits, set right to left as Arabic text sets it (٠٠٠١٢٣-٢٠٢٦-IN, read from
 * the right: IN, ٢٠٢٦, ٠٠٠١٢٣) and all in the Arabic font, so that a PDF reader gets it back in one piece
 * and in logical order (pdf.js reads a run of Arabic-Indic digits as right-to-left text).
 */
const ARABIC_NUMBER: Omit<TextStyle, 'size'> = { bold: true, dir: 'rtl', script: 'arabic' };

const ar = (key: string, params?: Record<string, unknown>) => translate('ar', `labels.${key}`, params);
const en = (key: string, params?: Record<string, unknown>) => translate('en', `labels.${key}`, params);

/** The registration day in both calendars and both languages. */
function dates(registeredAt: string) {
  const date = new Date(registeredAt);
  if (Number.isNaN(date.getTime())) throw new RangeError(`bad registration time: ${registeredAt}`);
  const long = { day: 'numeric', month: 'long', year: 'numeric' } as const;
  return {
    /** e.g. ١٧ جمادى الآخرة ١٤٤٨ هـ */
    hijriAr: new Intl.DateTimeFormat('ar-SA-u-ca-islamic-umalqura-nu-arab', long).format(date),
    /** e.g. Jumada II 17, 1448 AH */
    hijriEn: new Intl.DateTimeFormat('en-u-ca-islamic-umalqura', long).format(date),
    /** e.g. ٢٧ نوفمبر ٢٠٢٦ م */
    gregorianAr: `${new Intl.DateTimeFormat('ar-u-ca-gregory-nu-arab', long).format(date)} م`,
    /** e.g. 27 November 2026 */
    gregorianEn: new Intl.DateTimeFormat('en-GB', long).format(date),
    /** e.g. 27 Nov 2026 */
    gregorianShort: new Intl.DateTimeFormat('en-GB', { ...long, month: 'short' }).format(date),
  };
}

/** The paragraph direction of free text: that of its first letter. */
function directionOf(text: string): 'rtl' | 'ltr' {
  const first = /[\p{L}]/u.exec(text)?.[0];
  return first && /[\u0590-\u08ff\ufb1d-\ufefc]/.test(first) ? 'rtl' : 'ltr';
}

function checkNumber(number: string): void {
  if (!number.trim()) throw new RangeError('a label needs a registration number');
}

/** A rectangle on a page, in points, from its bottom-left corner. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * One sticker in `box`. The QR code stands at the right (Arabic reads from there), the text beside it
 * is set flush right, and the Code 128 runs along the bottom. On the small 50×25 mm label the type is
 * smaller and the entity's two names share one line (shrunk to fit, the English dropped if it cannot fit);
 * the codes keep their minimum module sizes everywhere (QR ≥ 0.4 mm, Code 128 ≥ 0.25 mm).
 */
function drawSticker(
  page: PDFPage,
  ts: Typesetter,
  doc: LabelDocument,
  box: Box,
  pad: { x: number; y: number },
) {
  const small = box.height < 30 * MM;
  const qrText = stickerPayload(doc.number);
  const qrModule = (small ? 0.4 : 0.5) * MM;
  const qrSide = qrSideModules(qrText) * qrModule;
  const barModules = code128WidthModules(doc.number);
  // The Code 128 may use the padding for its quiet zones, but its bars stay inside the padded box.
  const innerWidth = box.width - 2 * pad.x;
  let barModule = (small ? 0.25 : 0.3) * MM;
  const barsWidth = (barModules - 2 * CODE128_QUIET) * barModule;
  if (barsWidth > innerWidth) barModule = innerWidth / (barModules - 2 * CODE128_QUIET);
  const barHeight = (small ? 4.5 : 6.5) * MM;
  const barWidth = barModules * barModule;
  drawCode128(page, doc.number, box.x + (box.width - barWidth) / 2, box.y + pad.y, barModule, barHeight);

  // The QR code sits in the top right corner; half of its quiet zone may lie in the (blank) padding.
  const qrX = box.x + box.width - pad.x - qrSide + 4 * qrModule * 0.5;
  const qrY = box.y + box.height - pad.y - qrSide + 4 * qrModule * 0.5;
  drawQr(page, qrText, qrX, qrY, qrModule);

  const d = dates(doc.registeredAt);
  const direction = `${ar(`direction.${doc.direction}`)} · ${en(`direction.${doc.direction}`)}`;
  const numberSize = small ? 7.5 : 9;
  const body = small ? 5.5 : 6.5;
  type Line = { text: string; style: TextStyle };
  // Beside the QR code, flush right; on the small label the English name and the dates run under the
  // QR code across the whole label, where there is room for them.
  const beside: Line[] = [
    { text: doc.entity.ar, style: { size: small ? body : 7, bold: true } },
    ...(small ? [] : [{ text: doc.entity.en, style: { size: body, dir: 'ltr' } } satisfies Line]),
    { text: doc.number, style: { size: numberSize, bold: true, dir: 'ltr' } },
    { text: arabicIndicDigits(doc.number), style: { ...ARABIC_NUMBER, size: numberSize } },
    { text: direction, style: { size: body } },
    ...(small
      ? []
      : ([
          { text: d.hijriAr, style: { size: body } },
          { text: d.gregorianEn, style: { size: body, dir: 'ltr' } },
        ] satisfies Line[])),
  ];
  const under: Line[] = small
    ? [
        { text: `${d.hijriAr} · ${isolateLtr(d.gregorianShort)}`, style: { size: body } },
        { text: doc.entity.en, style: { size: body, dir: 'ltr' } },
      ]
    : [];
  const top = box.y + box.height - pad.y;
  const barsTop = box.y + pad.y + barHeight + 0.5 * MM;
  const qrBottom = qrY;
  // Text stops short of the QR code's whole quiet zone.
  const right = qrX - 0.4 * MM;
  const left = box.x + pad.x;
  /** Sets `lines` flush right between `from` and `to` (y, top down), spread evenly over the height. */
  const setLines = (lines: Line[], from: number, to: number, width: number, edge: number) => {
    const heights = lines.map((l) => l.style.size * 1.2);
    const gap = Math.max(0, (from - to - heights.reduce((a, b) => a + b, 0)) / lines.length);
    let y = from;
    lines.forEach((line, index) => {
      y -= heights[index]! * 0.8 + gap / 2;
      ts.draw(page, line.text, { x: edge, y, align: 'right', maxWidth: width, minSize: 4 }, line.style);
      y -= heights[index]! * 0.2 + gap / 2;
    });
  };
  if (under.length) {
    setLines(beside, top, qrBottom, right - left, right);
    setLines(under, qrBottom, barsTop, box.width - 2 * pad.x, box.x + box.width - pad.x);
  } else setLines(beside, top, barsTop, right - left, right);
}

async function newDocument(title: string) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer('Sijill');
  pdf.setCreator('Sijill');
  return { pdf, ts: await Typesetter.create(pdf) };
}

async function save(pdf: PDFDocument, ts: Typesetter): Promise<Uint8Array> {
  await ts.finish();
  return pdf.save({ useObjectStreams: true });
}

/** A registration sticker: a page of the label's size, or an A4 label sheet with the label at `position`. */
export async function stickerPdf(
  doc: LabelDocument,
  options: { size: LabelSize; position?: number },
): Promise<Uint8Array> {
  checkNumber(doc.number);
  const { pdf, ts } = await newDocument(`${doc.number}`);
  if (options.size === 'a4-24') {
    const position = options.position ?? 1;
    if (!Number.isInteger(position) || position < 1 || position > SHEET.columns * SHEET.rows)
      throw new RangeError(`label position ${position} is not on a sheet of 24`);
    const page = pdf.addPage([A4.width, A4.height]);
    // Labels are counted as printed on the sheet's packaging: left to right, top to bottom.
    const row = Math.floor((position - 1) / SHEET.columns);
    const column = (position - 1) % SHEET.columns;
    const box = {
      x: column * SHEET.width,
      y: A4.height - SHEET.top - (row + 1) * SHEET.height,
      width: SHEET.width,
      height: SHEET.height,
    };
    // Wider side padding: office printers leave the outer 4 mm of a sheet blank.
    drawSticker(page, ts, doc, box, { x: 4 * MM, y: 2.5 * MM });
  } else {
    const [w, h] = options.size === '50x25' ? [50, 25] : [70, 35];
    const page = pdf.addPage([w * MM, h * MM]);
    drawSticker(page, ts, doc, { x: 0, y: 0, width: w * MM, height: h * MM }, { x: 1.5 * MM, y: 1.2 * MM });
  }
  return save(pdf, ts);
}

const MARGIN = 18 * MM;

/** Draws Arabic `arText` flush right and English `enText` flush left on one row; answers the row's height. */
function bilingualRow(
  page: PDFPage,
  ts: Typesetter,
  y: number,
  arText: string,
  enText: string,
  style: Omit<TextStyle, 'dir'>,
): number {
  const half = (A4.width - 2 * MARGIN) / 2 - 4 * MM;
  const arLines = ts.wrap(arText, half, { ...style, dir: 'rtl' });
  const enLines = ts.wrap(enText, half, { ...style, dir: 'ltr' });
  const lineHeight = style.size * 1.45;
  arLines.forEach((line, i) =>
    ts.draw(
      page,
      line,
      { x: A4.width - MARGIN, y: y - i * lineHeight, align: 'right' },
      { ...style, dir: 'rtl' },
    ),
  );
  enLines.forEach((line, i) =>
    ts.draw(page, line, { x: MARGIN, y: y - i * lineHeight, align: 'left' }, { ...style, dir: 'ltr' }),
  );
  return Math.max(arLines.length, enLines.length) * lineHeight;
}

/** A QR code and a Code 128 of `payload`, centred; `y` is the top; answers the height used. */
function codeBlock(page: PDFPage, payload: string, y: number, qrModule: number, barHeight: number): number {
  const qrSide = qrSideModules(payload) * qrModule;
  drawQr(page, payload, (A4.width - qrSide) / 2, y - qrSide, qrModule);
  const barModules = code128WidthModules(payload);
  const barModule = Math.min(0.5 * MM, (A4.width - 2 * 8 * MM) / barModules);
  const barWidth = barModules * barModule;
  drawCode128(
    page,
    payload,
    (A4.width - barWidth) / 2,
    y - qrSide - 3 * MM - barHeight,
    barModule,
    barHeight,
  );
  return qrSide + 3 * MM + barHeight;
}

/** A cover sheet (A4): put on top of a registered document's paper when it is scanned later. */
export async function coverSheetPdf(doc: LabelDocument): Promise<Uint8Array> {
  checkNumber(doc.number);
  const { pdf, ts } = await newDocument(`${doc.number} — ${en('cover.title')}`);
  const page = pdf.addPage([A4.width, A4.height]);
  const centre = A4.width / 2;
  const d = dates(doc.registeredAt);
  let y = A4.height - MARGIN - 10;
  ts.draw(page, ar('cover.title'), { x: A4.width - MARGIN, y, align: 'right' }, { size: 24, bold: true });
  ts.draw(page, en('cover.title'), { x: MARGIN, y, align: 'left' }, { size: 22, bold: true, dir: 'ltr' });
  y -= 12 * MM;
  y -= bilingualRow(page, ts, y, ar('cover.instruction'), en('cover.instruction'), { size: 11 });
  y -= 6 * MM;
  y -= codeBlock(page, coverPayload(doc.number), y, 1.4 * MM, 14 * MM);
  y -= 14 * MM;
  ts.draw(page, doc.number, { x: centre, y, align: 'center' }, { size: 26, bold: true, dir: 'ltr' });
  y -= 12 * MM;
  ts.draw(
    page,
    arabicIndicDigits(doc.number),
    { x: centre, y, align: 'center' },
    { ...ARABIC_NUMBER, size: 24 },
  );
  y -= 14 * MM;
  const rows: [string, string, string, string][] = [
    [ar('entity'), doc.entity.ar, en('entity'), doc.entity.en],
    [ar('type'), ar(`direction.${doc.direction}`), en('type'), en(`direction.${doc.direction}`)],
    [
      ar('registered'),
      ar('hijriGregorian', { hijri: d.hijriAr, gregorian: d.gregorianAr }),
      en('registered'),
      en('hijriGregorian', { hijri: d.hijriEn, gregorian: d.gregorianEn }),
    ],
  ];
  for (const [arLabel, arValue, enLabel, enValue] of rows) {
    y -= bilingualRow(page, ts, y, `${arLabel}: ${arValue}`, `${enLabel}: ${enValue}`, { size: 12 });
    y -= 3 * MM;
  }
  if (doc.subject?.trim()) {
    // The subject is in its own language: one block across the page, under a label in both languages.
    y -= 2 * MM;
    ts.draw(page, ar('subject'), { x: A4.width - MARGIN, y, align: 'right' }, { size: 12, bold: true });
    ts.draw(page, en('subject'), { x: MARGIN, y, align: 'left' }, { size: 12, bold: true, dir: 'ltr' });
    y -= 7 * MM;
    const dir = directionOf(doc.subject);
    const style: TextStyle = { size: 12, dir };
    const lines = ts.wrap(doc.subject, A4.width - 2 * MARGIN, style).slice(0, 6);
    for (const line of lines) {
      ts.draw(page, line, { x: dir === 'rtl' ? A4.width - MARGIN : MARGIN, y }, style);
      y -= 12 * 1.45;
    }
  }
  return save(pdf, ts);
}

/**
 * A separator sheet (A4): put between documents in a scanning batch. The codes are printed near the top
 * and again near the bottom, so that one is found whichever way round the sheet went through the scanner.
 */
export async function separatorSheetPdf(): Promise<Uint8Array> {
  const { pdf, ts } = await newDocument(en('separator.title'));
  const page = pdf.addPage([A4.width, A4.height]);
  const centre = A4.width / 2;
  let y = A4.height - MARGIN + 4 * MM;
  y -= codeBlock(page, SEPARATOR_PAYLOAD, y, 1.2 * MM, 12 * MM);
  y -= 18 * MM;
  ts.draw(
    page,
    ar('separator.title'),
    { x: centre, y, align: 'center', maxWidth: A4.width - 2 * MARGIN },
    { size: 26, bold: true },
  );
  y -= 13 * MM;
  ts.draw(
    page,
    en('separator.title'),
    { x: centre, y, align: 'center', maxWidth: A4.width - 2 * MARGIN },
    { size: 22, bold: true, dir: 'ltr' },
  );
  y -= 14 * MM;
  bilingualRow(page, ts, y, ar('separator.instruction'), en('separator.instruction'), { size: 13 });
  const bottomBlock = qrSideModules(SEPARATOR_PAYLOAD) * 1.2 * MM + 3 * MM + 12 * MM;
  codeBlock(page, SEPARATOR_PAYLOAD, MARGIN - 4 * MM + bottomBlock, 1.2 * MM, 12 * MM);
  return save(pdf, ts);
}
