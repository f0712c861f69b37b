/**
 * Upload fixtures for API tests: a minimal valid one-page PDF built with correct xref offsets, a PNG
 * made by sharp, and multipart bodies for app.inject.
 */
import { createHash, randomBytes } from 'node:crypto';
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

/** RC4 (the standard security handler's cipher at revision 2). */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

/**
 * A PDF encrypted with an owner password only (the user password empty, as PDFs that forbid printing
 * or copying are): readers open it without asking, and so does pdf.js — an archive takes it. Its O and
 * U entries are computed as the standard security handler's revision 2 says (40-bit RC4); its page's
 * content stream is left as it is (the checks open the page, they do not draw it).
 */
export function ownerLockedPdf(): Buffer {
  const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const padding = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');
  const id = randomBytes(16);
  const permissions = -44; // printing and copying forbidden
  const ownerPassword = Buffer.from('owner secret', 'latin1');
  const padded = Buffer.concat([ownerPassword, padding]).subarray(0, 32);
  const owner = rc4(md5(padded).subarray(0, 5), padding);
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padding, owner, p, id).subarray(0, 5);
  const user = rc4(key, padding);
  return pdfWith({
    objects: [
      `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
    ],
    trailer: `/Encrypt 5 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`,
  });
}
