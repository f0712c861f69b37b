/**
 * A scanned batch cut by the codes on its pages (issue 26): separator sheets split it and are dropped,
 * a cover sheet or a registration sticker files its part on the document it names, parts without a code
 * become incoming drafts, pages stay in order and each in exactly one part; a retry answers every part,
 * the batch again is a duplicate, and a code naming a document that does not exist or that the station
 * may not see refuses the whole batch with nothing made. The codes are real (QR codes drawn in the PDF,
 * Code 128 bars as an image) and read by the real codes child.
 */
import { randomBytes } from 'node:crypto';
import bwipjs from 'bwip-js/node';
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEPARATOR_PAYLOAD, coverPayload, stickerPayload } from '../../src-shared/paper-codes';
import {
  actor,
  ALL_CORRESPONDENCE,
  letter,
  organisation,
  registeredLetter,
  type Org,
} from './support/correspondence';
import { call, countRows, makeRole, startHarness, type Harness } from './support/harness';
import { multipart } from './support/files';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => h?.close());

let seq = 0;
const newKey = () => `codes-test:${Date.now()}:${++seq}`;

/** What a batch page carries: nothing, a separator sheet, a cover sheet, or a sticker (QR or Code 128). */
type Sheet =
  | { kind: 'plain'; foreign?: string }
  | { kind: 'separator' }
  | { kind: 'cover'; number: string }
  | { kind: 'sticker'; number: string; as?: 'qr' | 'code128' }
  | { kind: 'two'; numbers: [string, string] };

/** Draws a QR code of `text` as squares, `module` points each, its top-left corner at (x, top). */
function drawQr(page: PDFPage, text: string, x: number, top: number, module = 2.2) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++)
      if (qr.modules.get(row, col))
        page.drawRectangle({
          x: x + col * module,
          y: top - (row + 1) * module,
          width: module,
          height: module,
          color: rgb(0, 0, 0),
        });
}

/**
 * A batch: page k is 500 + k points wide (so a part's pages can be told apart and their order checked),
 * with a line of text and the codes its sheet asks for.
 */
async function batch(sheets: readonly Sheet[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const [index, sheet] of sheets.entries()) {
    const page = doc.addPage([500 + index + 1, 800]);
    page.drawText(`Page ${index + 1} ${randomBytes(4).toString('hex')}`, { x: 40, y: 760, size: 14 });
    // A letter's own QR code (an e-invoice's, a sender's reference): not ours, so it cuts nothing.
    if (sheet.kind === 'plain' && sheet.foreign) drawQr(page, sheet.foreign, 300, 400, 3);
    if (sheet.kind === 'separator') drawQr(page, SEPARATOR_PAYLOAD, 180, 600, 4);
    if (sheet.kind === 'cover') drawQr(page, coverPayload(sheet.number), 180, 600, 4);
    if (sheet.kind === 'two') {
      drawQr(page, stickerPayload(sheet.numbers[0]), 40, 700);
      drawQr(page, stickerPayload(sheet.numbers[1]), 300, 300);
    }
    if (sheet.kind === 'sticker') {
      if (sheet.as === 'code128') {
        const png = await bwipjs.toBuffer({ bcid: 'code128', text: sheet.number, scale: 3, height: 12 });
        const image = await doc.embedPng(png);
        page.drawImage(image, { x: 40, y: 600, width: image.width / 2, height: image.height / 2 });
      } else drawQr(page, stickerPayload(sheet.number), 330, 760);
    }
  }
  return Buffer.from(await doc.save());
}

function send(bytes: Buffer, opts: { key?: string; token?: string; name?: string } = {}) {
  const m = multipart(bytes, opts.name ?? 'batch 0001.pdf', 'application/pdf');
  return h.app.inject({
    method: 'POST',
    url: '/correspondence/intake',
    headers: {
      authorization: `Bearer ${opts.token ?? org.clerk.token}`,
      'accept-language': 'en',
      'idempotency-key': opts.key ?? newKey(),
      ...m.headers,
    },
    payload: m.payload,
  });
}

/** The widths of a stored attachment's pages (500 + the batch's page number). */
async function batchPagesOf(documentId: number, attachmentId: number): Promise<number[]> {
  const res = await h.app.inject({
    method: 'GET',
    url: `/correspondence/documents/${documentId}/attachments/${attachmentId}/content`,
    headers: { authorization: `Bearer ${org.clerk.token}` },
  });
  expect(res.statusCode).toBe(200);
  const doc = await PDFDocument.load(res.rawPayload);
  return doc.getPages().map((p) => Math.round(p.getWidth()) - 500);
}

const counts = async () => ({
  documents: await countRows(h, 'documents'),
  attachments: await countRows(h, 'document_attachments'),
  receipts: await countRows(h, 'intake_receipts'),
});

// A guard against a hang, not a speed limit: each batch's pages are read by the codes child, which on a
// machine loaded with other suites takes far longer than alone.
describe('a batch cut by its codes', { timeout: 300_000 }, () => {
  it('splits at separators, files cover-sheet and sticker parts on their documents, keeps every other page in order', async () => {
    const one = await registeredLetter(h, org);
    const two = await registeredLetter(h, org);
    const bytes = await batch([
      { kind: 'plain' }, // 1 → a draft
      { kind: 'plain' }, // 2
      { kind: 'separator' }, // 3 dropped
      { kind: 'cover', number: one.docNumber }, // 4 dropped, names 5–6
      { kind: 'plain' }, // 5
      { kind: 'plain' }, // 6
      { kind: 'sticker', number: two.docNumber, as: 'code128' }, // 7 → two, with 8
      { kind: 'plain', foreign: 'https://zatca.gov.sa/e-invoice/310122393500003?total=115.00' }, // 8
      { kind: 'separator' }, // 9 dropped
      { kind: 'plain' }, // 10 → a draft
    ]);
    const key = newKey();
    const res = await send(bytes, { key, name: 'دفعة 7.pdf' });
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json().data;
    const parts = result.parts as {
      documentId: number;
      attachmentId: number;
      docNumber: string | null;
      pages: number[];
    }[];
    expect(parts.map((p) => [p.pages, p.docNumber])).toEqual([
      [[1, 2], null],
      [[5, 6], one.docNumber],
      [[7, 8], two.docNumber],
      [[10], null],
    ]);
    expect(result).toMatchObject({ documentId: parts[0]!.documentId, replayed: false });
    expect(parts[1]!.documentId).toBe(one.id);
    expect(parts[2]!.documentId).toBe(two.id);
    // Each part holds exactly its pages, in the batch's order.
    for (const part of parts)
      expect(await batchPagesOf(part.documentId, part.attachmentId), JSON.stringify(part)).toEqual(
        part.pages,
      );
    // The drafts are incoming drafts named after the batch and their pages.
    const draft = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${parts[0]!.documentId}`,
      token: org.clerk.token,
    });
    expect(draft.json.data).toMatchObject({ direction: 'in', state: 'draft', subject: 'دفعة 7 (1-2)' });
    // The timeline of each document says which batch and pages its file came from.
    const timeline = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${one.id}/timeline`,
      token: org.clerk.token,
    });
    const added = (timeline.json.data as { event: string; details: Record<string, unknown> }[]).filter(
      (e) => e.event === 'attachmentAdded',
    );
    expect(added.at(-1)!.details).toMatchObject({ batch: 'دفعة 7.pdf', pages: [5, 6] });

    // A retry answers every part again, making nothing.
    const before = await counts();
    const again = await send(bytes, { key, name: 'دفعة 7.pdf' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toEqual({ ...result, replayed: true });
    expect(await counts()).toEqual(before);

    // The same batch under another key: its parts are in the archive already; nothing is made.
    const twice = await send(bytes, { name: 'دفعة 7 (2).pdf' });
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'intake.duplicate', params: { pages: '1-2' } });
    expect(await counts()).toEqual(before);
  });

  it('a sticker alone (no separator) starts a new document; a batch without codes is taken whole as before', async () => {
    const one = await registeredLetter(h, org);
    const cut = await send(
      await batch([{ kind: 'plain' }, { kind: 'sticker', number: one.docNumber }, { kind: 'plain' }]),
    );
    expect(cut.statusCode, cut.body).toBe(201);
    expect(
      (cut.json().data.parts as { pages: number[]; documentId: number }[]).map((p) => [
        p.pages,
        p.documentId === one.id,
      ]),
    ).toEqual([
      [[1], false],
      [[2, 3], true],
    ]);
    const whole = await send(await batch([{ kind: 'plain' }, { kind: 'plain' }]), { name: 'plain.pdf' });
    expect(whole.statusCode, whole.body).toBe(201);
    expect(whole.json().data.parts).toBeUndefined();
    expect(whole.json().data).toMatchObject({ subject: 'plain', docNumber: null });
  });

  it('a code naming a document that does not exist, or one the station may not see, refuses the whole batch and makes nothing', async () => {
    const role = await makeRole(h, ALL_CORRESPONDENCE as unknown as Record<string, ('view' | 'add')[]>);
    const stranger = await actor(h, role, org.archive);
    await h.query(
      `insert into user_clearances (user_id, security_level_id) values (${org.clerk.userId}, ${org.levels.secret})
       on conflict do nothing`,
    );
    const secret = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org, { subject: 'خطاب سري', securityLevelId: org.levels.secret }), register: true },
    });
    expect(secret.status).toBe(201);
    const secretNumber = secret.json.data.docNumber as string;
    const visible = await registeredLetter(h, org);
    const before = await counts();
    for (const [what, number, token] of [
      ['no such document', 'IN-2026-999999', org.clerk.token],
      ['a document the station may not see', secretNumber, stranger.token],
    ] as const) {
      const res = await send(
        await batch([
          { kind: 'cover', number: visible.docNumber },
          { kind: 'plain' },
          { kind: 'separator' },
          { kind: 'sticker', number },
          { kind: 'plain' },
        ]),
        { token },
      );
      expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'intake.noSuchNumber', params: { number, pages: '4-5' } });
      expect(res.json().detail).toContain(number);
      expect(await counts(), what).toEqual(before);
    }
  });

  it('refuses a page naming two documents, and a batch of separator sheets only', async () => {
    const one = await registeredLetter(h, org);
    const two = await registeredLetter(h, org);
    const before = await counts();
    const conflict = await send(
      await batch([{ kind: 'plain' }, { kind: 'two', numbers: [one.docNumber, two.docNumber] }]),
    );
    expect(conflict.statusCode, conflict.body).toBe(422);
    expect(conflict.json()).toMatchObject({ code: 'intake.codesConflict', params: { pages: '2' } });
    const separators = await send(await batch([{ kind: 'separator' }, { kind: 'separator' }]));
    expect(separators.statusCode, separators.body).toBe(422);
    expect(separators.json()).toMatchObject({ code: 'intake.onlySeparators' });
    expect(await counts()).toEqual(before);
  });

  it('in a batch request, a cut file and a plain file are each answered', async () => {
    const one = await registeredLetter(h, org);
    const files = [
      {
        key: newKey(),
        bytes: await batch([
          { kind: 'cover', number: one.docNumber },
          { kind: 'plain' },
          { kind: 'separator' },
          { kind: 'plain' },
        ]),
      },
      { key: newKey(), bytes: await batch([{ kind: 'plain' }]) },
    ];
    const boundary = `----codes${randomBytes(6).toString('hex')}`;
    const chunks: Buffer[] = [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="manifest"\r\n\r\n${JSON.stringify({
          files: files.map((f) => ({ key: f.key })),
        })}\r\n`,
      ),
    ];
    files.forEach((f, i) => {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        f.bytes,
        Buffer.from('\r\n'),
      );
    });
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const res = await h.app.inject({
      method: 'POST',
      url: '/correspondence/intake/batch',
      headers: {
        authorization: `Bearer ${org.clerk.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat(chunks),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [cut, plain] = res.json().data.results as {
      status: number;
      result: { parts?: { pages: number[] }[] };
    }[];
    expect(cut!.status).toBe(201);
    expect(cut!.result.parts!.map((p) => p.pages)).toEqual([[2], [4]]);
    expect(plain!.status).toBe(201);
    expect(plain!.result.parts).toBeUndefined();
  });
});
