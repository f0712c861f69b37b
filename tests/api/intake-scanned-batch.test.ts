/**
 * A scanned batch as a scanning station sends it (issue 26): 30 pages made from Sijill's own stickers,
 * cover sheets and separator sheets, rasterised at 200 dpi, turned, skewed and speckled
 * (tests/support/paper-batch.ts), through POST /correspondence/intake and the real codes child. It must
 * come out as exactly the expected documents, each with exactly its pages in the batch's order: a misread
 * code (a sticker missed, a separator not seen) is a failure here.
 */
import { createHash } from 'node:crypto';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelFacts, scannedBatch } from '../support/paper-batch';
import { organisation, registeredLetter, type Org } from './support/correspondence';
import { countRows, startHarness, type Harness } from './support/harness';
import { multipart } from './support/files';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => h?.close());

/** The digest of each page's scanned image (its stream's bytes, which copying a page keeps as they are). */
async function pageImages(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const xobjects = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
    const [ref] = xobjects.values();
    const stream = doc.context.lookup(ref!);
    if (!(stream instanceof PDFRawStream)) throw new Error('a scanned page without its image');
    return createHash('sha256').update(stream.contents).digest('hex');
  });
}

describe('a 30-page scanned batch', () => {
  it('comes out as the right documents, each with its pages in order', async () => {
    const letters = [
      await registeredLetter(h, org),
      await registeredLetter(h, org),
      await registeredLetter(h, org),
    ];
    const batch = await scannedBatch(labelFacts(letters), 7);
    const images = await pageImages(batch.bytes);
    expect(images).toHaveLength(batch.pages);

    const documents = await countRows(h, 'documents');
    const m = multipart(Buffer.from(batch.bytes), 'دفعة المسح 12.pdf', 'application/pdf');
    const res = await h.app.inject({
      method: 'POST',
      url: '/correspondence/intake',
      headers: {
        authorization: `Bearer ${org.clerk.token}`,
        'accept-language': 'en',
        'idempotency-key': `scanned-batch:${Date.now()}`,
        ...m.headers,
      },
      payload: m.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const parts = res.json().data.parts as {
      documentId: number;
      attachmentId: number;
      docNumber: string | null;
      pages: number[];
    }[];
    expect(parts.map((p) => ({ pages: p.pages, number: p.docNumber }))).toEqual(batch.expected);
    // The parts without a code are new drafts; the others are on the documents their codes name.
    const drafts = batch.expected.filter((p) => p.number === null).length;
    expect(await countRows(h, 'documents')).toBe(documents + drafts);
    for (const part of parts) {
      if (part.docNumber !== null)
        expect(part.documentId).toBe(letters.find((l) => l.docNumber === part.docNumber)!.id);
      const stored = await h.app.inject({
        method: 'GET',
        url: `/correspondence/documents/${part.documentId}/attachments/${part.attachmentId}/content`,
        headers: { authorization: `Bearer ${org.clerk.token}` },
      });
      expect(stored.statusCode).toBe(200);
      expect(await pageImages(stored.rawPayload), `pages ${part.pages.join(',')}`).toEqual(
        part.pages.map((p) => images[p - 1]),
      );
    }
  }, 300_000);
});
