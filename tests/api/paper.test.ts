/**
 * A registered document's paper over HTTP (issue 26): its sticker in each size (an A4 sheet of labels at a
 * position), its cover sheet, the separator sheet; every print of a sticker or cover sheet recorded on the
 * timeline (reprints counted) and in the audit log; a draft has no sticker (409), a document the caller
 * may not see has none for them (404, nothing recorded), bad sizes and positions are refused (400).
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actor,
  ALL_CORRESPONDENCE,
  letter,
  organisation,
  registeredLetter,
  type Org,
} from './support/correspondence';
import { call, makeRole, startHarness, type Harness } from './support/harness';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => h?.close());

const MM = 72 / 25.4;

function get(url: string, token: string | null = org.clerk.token) {
  return h.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

/** The page sizes of a PDF answer, in whole millimetres. */
async function pageSizes(body: Buffer): Promise<[number, number][]> {
  const doc = await PDFDocument.load(body);
  return doc.getPages().map((p) => [Math.round(p.getWidth() / MM), Math.round(p.getHeight() / MM)]);
}

const printsOf = async (documentId: number) =>
  h.query<{ event: string; copy: number; size: string | null; position: number | null }>(
    `select event, (details->>'copy')::int as copy, details->>'size' as size,
            (details->>'position')::int as position
       from document_events where document_id = ${documentId}
        and event in ('stickerPrinted', 'coverSheetPrinted') order by id`,
  );

describe('paper', () => {
  it('prints a sticker in each size, counts reprints on the timeline and in the audit log', async () => {
    const doc = await registeredLetter(h, org);
    const small = await get(`/correspondence/documents/${doc.id}/sticker?size=50x25`);
    expect(small.statusCode, small.body).toBe(200);
    expect(small.headers['content-type']).toBe('application/pdf');
    expect(small.headers['cache-control']).toBe('no-store');
    expect(await pageSizes(small.rawPayload)).toEqual([[50, 25]]);
    const usual = await get(`/correspondence/documents/${doc.id}/sticker`);
    expect(await pageSizes(usual.rawPayload)).toEqual([[70, 35]]);
    const sheet = await get(`/correspondence/documents/${doc.id}/sticker?size=a4-24&position=5`);
    expect(sheet.statusCode, sheet.body).toBe(200);
    expect(await pageSizes(sheet.rawPayload)).toEqual([[210, 297]]);
    expect(await printsOf(doc.id)).toEqual([
      { event: 'stickerPrinted', copy: 1, size: '50x25', position: null },
      { event: 'stickerPrinted', copy: 2, size: '70x35', position: null },
      { event: 'stickerPrinted', copy: 3, size: 'a4-24', position: 5 },
    ]);
    const audit = await h.query<{ action: string; actor_id: number; target_id: string }>(
      `select action, actor_id, target_id from audit_log
        where action = 'documents.stickerPrinted' and target_id = '${doc.id}' order by id`,
    );
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({ actor_id: org.clerk.userId, target_id: String(doc.id) });
    // The timeline as the screens read it: each print, the reprints with their copy.
    const timeline = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${doc.id}/timeline`,
      token: org.clerk.token,
    });
    expect(
      (timeline.json.data as { event: string; details: { copy?: number } }[])
        .filter((e) => e.event === 'stickerPrinted')
        .map((e) => e.details.copy),
    ).toEqual([1, 2, 3]);
  });

  it('prints a cover sheet (A4, recorded) and the separator sheet (A4) for anyone signed in', async () => {
    const doc = await registeredLetter(h, org);
    const cover = await get(`/correspondence/documents/${doc.id}/cover-sheet`);
    expect(cover.statusCode, cover.body).toBe(200);
    expect(await pageSizes(cover.rawPayload)).toEqual([[210, 297]]);
    expect(await printsOf(doc.id)).toEqual([
      { event: 'coverSheetPrinted', copy: 1, size: null, position: null },
    ]);
    const separator = await get('/correspondence/separator-sheet', org.outsider.token);
    expect(separator.statusCode, separator.body).toBe(200);
    expect(await pageSizes(separator.rawPayload)).toEqual([[210, 297]]);
    expect((await get('/correspondence/separator-sheet', null)).statusCode).toBe(401);
  });

  it('refuses a draft, a hidden document, a stranger and bad sizes, recording nothing', async () => {
    const draft = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: letter(org),
    });
    expect(draft.status).toBe(201);
    const notNumbered = await get(`/correspondence/documents/${draft.json.data.id}/sticker`);
    expect(notNumbered.statusCode).toBe(409);
    expect(notNumbered.json()).toMatchObject({ code: 'paper.notNumbered' });
    expect(notNumbered.json().detail).toContain('no registration number yet');
    expect((await get(`/correspondence/documents/${draft.json.data.id}/cover-sheet`)).statusCode).toBe(409);

    // A secret letter: its clerk may print its sticker; a clerk of the same office without the clearance
    // may not, and learns nothing of it (404, as for a document that does not exist).
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
      body: { ...letter(org, { securityLevelId: org.levels.secret }), register: true },
    });
    expect(secret.status).toBe(201);
    const id = secret.json.data.id as number;
    for (const path of ['sticker', 'cover-sheet']) {
      const hidden = await get(`/correspondence/documents/${id}/${path}`, stranger.token);
      expect(hidden.statusCode, path).toBe(404);
      expect(hidden.body).not.toContain(secret.json.data.docNumber);
    }
    expect((await get(`/correspondence/documents/999999/sticker`)).statusCode).toBe(404);
    expect((await get(`/correspondence/documents/${id}/sticker`, null)).statusCode).toBe(401);
    expect(await printsOf(id)).toEqual([]);

    for (const query of ['size=60x30', 'position=25&size=a4-24', 'position=0', 'position=x', 'colour=red']) {
      const bad = await get(`/correspondence/documents/${id}/sticker?${query}`);
      expect(bad.statusCode, query).toBe(400);
    }
    expect(await printsOf(id)).toEqual([]);
  });
});
