/**
 * Upload fixtures for API tests: a minimal valid one-page PDF built with correct xref offsets, a PNG
 * made by sharp, and multipart bodies for app.inject.
 */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A valid one-page PDF (optionally with some text so different calls give different bytes). */
export function minimalPdf(note = 'Sijill'): Buffer {
  return pdfWith({ note });
}

/**
 * A one-page PDF with extra entries in its catalog and first page and extra objects (numbered from 5),
 * for PDFs carrying actions: e.g. `{ catalog: '/OpenAction 5 0 R', objects: ['<< /S /JavaScript /JS (x) >>'] }`.
 */
export function pdfWith(
  opts: { note?: string; catalog?: string; page?: string; objects?: string[]; trailer?: string } = {},
): Buffer {
  const note = opts.note ?? 'Sijill';
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R ${opts.catalog ?? ''} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R ${opts.page ?? ''} >>`,
  ];
  const stream = `BT /F1 12 Tf 20 100 Td (${note.replace(/[()\\]/g, '')}) Tj ET`;
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  objects.push(...(opts.objects ?? []));
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${opts.trailer ?? ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A Flate-compressed object stream holding `objects` (numbered from `first`), as the object text of a PDF. */
export function objectStream(first: number, objects: string[]): string {
  let offsets = '';
  let data = '';
  objects.forEach((o, i) => {
    offsets += `${first + i} ${data.length} `;
    data += `${o}\n`;
  });
  const raw = Buffer.from(offsets + data, 'latin1');
  const packed = deflateSync(raw).toString('latin1');
  return `<< /Type /ObjStm /N ${objects.length} /First ${offsets.length} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n${packed}\nendstream`;
}

/** A PNG of `width`×`height`. */
export function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 90 } } })
    .png()
    .toBuffer();
}

/** A multipart/form-data body with one file field. */
export function multipart(
  bytes: Buffer,
  fileName: string,
  contentType: string,
  field = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sijill${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * A PDF encrypted with the standard security handler and a user password nobody knows: readers (and
 * pdf.js) ask for the password, so it cannot be opened or checked.
 */
export function encryptedPdf(): Buffer {
  const hex = (n: number) => randomBytes(n).toString('hex');
  return pdfWith({
    objects: [`<< /Filter /Standard /V 1 /R 2 /O <${hex(32)}> /U <${hex(32)}> /P -44 >>`],
    trailer: `/Encrypt 5 0 R /ID [<${hex(16)}> <${hex(16)}>]`,
  });
}

/**
 * A valid PDF of about `megabytes` MB: a page plus an unused stream object of random bytes (a scan's
 * image weighs the same), then `tail` objects after it — an action placed there sits megabytes into the file.
 */
export function largePdf(megabytes: number, opts: { catalog?: string; tail?: string[] } = {}): Buffer {
  const filler = randomBytes(Math.round(megabytes * 1024 * 1024)).toString('latin1');
  return pdfWith({
    catalog: opts.catalog,
    objects: [`<< /Length ${filler.length} >>\nstream\n${filler}\nendstream`, ...(opts.tail ?? [])],
  });
}
