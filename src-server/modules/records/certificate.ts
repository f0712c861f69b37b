/**
 * The certificate of destruction (docs/records.md): an A4 PDF in Arabic and English naming the file, the
 * legal reference, who proposed, approved and carried out the destruction and when, and every destroyed
 * document with the SHA-256 of each of its files. A pure maker (no database, no clock: the same disposition
 * makes the same bytes), set with the labels' typesetter (bidi-js ordering, fontkit shaping, Noto fonts
 * embedded), so Arabic reads back from the PDF.
 */
import { PDFDocument, type PDFPage } from 'pdf-lib';
import type { Disposition } from '../../../src-shared/api/records';
import { translate } from '../../i18n';
import { MM } from '../labels/codes';
import { Typesetter, type TextStyle } from '../labels/typeset';

const A4 = { width: 210 * MM, height: 297 * MM };
const MARGIN = 15 * MM;
const ar = (key: string, params?: Record<string, unknown>) =>
  translate('ar', `records.certificate.${key}`, params);
const en = (key: string, params?: Record<string, unknown>) =>
  translate('en', `records.certificate.${key}`, params);

/** The paragraph direction of free text: that of its first letter. */
const directionOf = (text: string): 'rtl' | 'ltr' => {
  const first = /[\p{L}]/u.exec(text)?.[0];
  return first && /[\u0590-\u08ff\ufb1d-\ufefc]/.test(first) ? 'rtl' : 'ltr';
};

/** How many documents are set between two calls of `onDocuments` (the thread is free between them). */
const DOCUMENTS_PER_STEP = 10;

/**
 * Makes the certificate of a destruction carried out. Setting it takes milliseconds per document: the
 * server makes it in a worker thread (pdf-making/, task `certificate`), not on the thread that answers
 * requests. `onDocuments` (the job's progress; in the server's own thread, where no worker can be had,
 * also its giving way to requests) is awaited every few documents with how many are set.
 */
export async function certificatePdf(
  d: Disposition,
  onDocuments?: (set: number) => Promise<void>,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${en('title')} — ${d.file.code}`);
  pdf.setProducer('Sijill');
  pdf.setCreator('Sijill');
  // Dated when the destruction was carried out, not when it is made: the same record makes the same bytes
  // (a job run twice stores one certificate).
  if (d.executedAt) {
    pdf.setCreationDate(new Date(d.executedAt));
    pdf.setModificationDate(new Date(d.executedAt));
  }
  const ts = await Typesetter.create(pdf);
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN - 10;
  const room = (h: number) => {
    if (y - h < MARGIN) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
  };
  const half = (A4.width - 2 * MARGIN) / 2 - 4 * MM;
  /** One row: Arabic on the right half, English on the left. */
  const pair = (arText: string, enText: string, style: Omit<TextStyle, 'dir'>) => {
    const arLines = ts.wrap(arText, half, { ...style, dir: 'rtl' });
    const enLines = ts.wrap(enText, half, { ...style, dir: 'ltr' });
    const lh = style.size * 1.45;
    room(Math.max(arLines.length, enLines.length) * lh);
    arLines.forEach((l, i) =>
      ts.draw(page, l, { x: A4.width - MARGIN, y: y - i * lh, align: 'right' }, { ...style, dir: 'rtl' }),
    );
    enLines.forEach((l, i) =>
      ts.draw(page, l, { x: MARGIN, y: y - i * lh, align: 'left' }, { ...style, dir: 'ltr' }),
    );
    y -= Math.max(arLines.length, enLines.length) * lh + 2 * MM;
  };
  /** Free text (a subject, a title) across the page in its own direction. */
  const free = (text: string, style: Omit<TextStyle, 'dir'>) => {
    const dir = directionOf(text);
    const lh = style.size * 1.45;
    for (const line of ts.wrap(text, A4.width - 2 * MARGIN, { ...style, dir }).slice(0, 4)) {
      room(lh);
      ts.draw(page, line, { x: dir === 'rtl' ? A4.width - MARGIN : MARGIN, y }, { ...style, dir });
      y -= lh;
    }
  };
  const name = (r: { nameAr: string; nameEn: string } | null) => r ?? { nameAr: '—', nameEn: '—' };
  const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : '—');

  ts.draw(page, ar('title'), { x: A4.width - MARGIN, y, align: 'right' }, { size: 20, bold: true });
  ts.draw(page, en('title'), { x: MARGIN, y, align: 'left' }, { size: 18, bold: true, dir: 'ltr' });
  y -= 12 * MM;
  pair(ar('file', { code: d.file.code }), en('file', { code: d.file.code }), { size: 12, bold: true });
  free(d.file.titleAr, { size: 11 });
  if (d.file.titleEn !== d.file.titleAr) free(d.file.titleEn, { size: 11 });
  y -= 2 * MM;
  pair(ar('reference', { reference: d.legalReference }), en('reference', { reference: d.legalReference }), {
    size: 10,
  });
  const p = name(d.proposedBy);
  const a = name(d.approvedBy);
  const x = name(d.executedBy);
  pair(
    ar('proposed', { name: p.nameAr, at: when(d.proposedAt) }),
    en('proposed', { name: p.nameEn, at: when(d.proposedAt) }),
    { size: 10 },
  );
  pair(
    ar('approved', { name: a.nameAr, at: when(d.approvedAt) }),
    en('approved', { name: a.nameEn, at: when(d.approvedAt) }),
    { size: 10 },
  );
  pair(
    ar('executed', { name: x.nameAr, at: when(d.executedAt) }),
    en('executed', { name: x.nameEn, at: when(d.executedAt) }),
    { size: 10 },
  );
  pair(ar('count', { count: d.record.length }), en('count', { count: d.record.length }), { size: 10 });
  y -= 3 * MM;
  for (const [i, doc] of d.record.entries()) {
    if (onDocuments && i > 0 && i % DOCUMENTS_PER_STEP === 0) await onDocuments(i);
    room(30);
    const number = doc.docNumber ?? '—';
    pair(
      ar('document', { number, date: doc.documentDate ?? '—' }),
      en('document', { number, date: doc.documentDate ?? '—' }),
      { size: 10, bold: true },
    );
    free(doc.subject, { size: 10 });
    for (const f of doc.files) {
      room(12);
      // The hash in one left-to-right Latin run, so that a reader of the PDF gets it back whole.
      ts.draw(
        page,
        `SHA-256 ${f.sha256}`,
        { x: MARGIN, y },
        { size: 8, dir: 'ltr', script: 'latin', plain: true },
      );
      y -= 8 * 1.45;
      ts.draw(
        page,
        `${f.fileName} (${f.size} B)`,
        { x: MARGIN + 6 * MM, y, align: 'left', maxWidth: A4.width - 2 * MARGIN - 6 * MM },
        { size: 8, dir: directionOf(f.fileName), gray: 0.35 },
      );
      y -= 8 * 1.6;
    }
    y -= 2 * MM;
  }
  await ts.finish();
  return pdf.save({ useObjectStreams: true });
}
