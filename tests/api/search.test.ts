/**
 * GET /search: Arabic as written (hamza, ta marbuta, prefixes), English stems, numbers first, passages
 * with the matched words, filters, paging, its own page permission, and the one visibility predicate — a
 * user never finds what they may not see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { department, letter, organisation, type Org, type Actor } from './support/correspondence';
import { SEARCH_TEST_TIMEOUT_MS, settleSearch } from './support/search';
import { enqueueMissingSearchWork } from '../../src-server/modules/search/jobs';
import { READER_VERSION } from '../../src-server/modules/search/extract';
import { reindexDocument } from '../../src-server/modules/search/indexer';
import pg from 'pg';
import type { ServerContext } from '../../src-server/context';
import { LEXICON_VERSION } from '../../src-shared/search';
import { SEARCH_MAX_RESULTS } from '../../src-shared/api/search';
import { multipart } from './support/files';
import { canMakePdfs, makeBornDigitalPdf, makeBrokenPdf, makeScannedPdf } from '../support/pdf-makers';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let h: Harness;
let org: Org;
const ids: Record<string, number> = {};
const numbers: Record<string, string> = {};

async function create(by: Actor, body: Record<string, unknown>, register = true) {
  const res = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: by.token,
    body: { ...body, register },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data as { id: number; docNumber: string | null };
}

async function search(token: string, query: Record<string, string | number>, lang: 'ar' | 'en' = 'en') {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return call(h, { method: 'GET', url: `/search?${qs}`, token, lang });
}

const found = async (token: string, q: string, extra: Record<string, string | number> = {}) => {
  const res = await search(token, { q, ...extra });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json.data.items as { documentId: number }[]).map((i) => i.documentId);
};

beforeAll(async () => {
  h = await startHarness({ JOBS_WORKER: '1' });
  org = await organisation(h);
  // The correspondence role of the organisation may also search.
  await h.query(`insert into role_page_permissions (role_id, page_id, permissions)
    select u.role_id, p.id, '{view}' from users u, pages p
    where u.id = ${org.clerk.userId} and p.path = '/search/documents'`);
  const memo = await create(org.clerk, letter(org, { subject: 'بشأن المذكرات الواردة من وزارة الصحة' }));
  ids.memo = memo.id;
  numbers.memo = memo.docNumber!;
  ids.english = (
    await create(
      org.clerk,
      letter(org, {
        subject: 'Annual budgets approval',
        summary: 'Letters about running costs, to follow up every quarter',
      }),
    )
  ).id;
  ids.reference = (
    await create(org.clerk, letter(org, { subject: 'طلب تجديد عقد', senderDocumentNumber: 'م/ص/٤٥٦٧' }))
  ).id;
  await h.query(
    `insert into user_clearances (user_id, security_level_id) values (${org.clerk.userId}, ${org.levels.secret})`,
  );
  ids.secret = (
    await create(
      org.clerk,
      letter(org, { subject: 'مذكرة سرية عن الميزانية', securityLevelId: org.levels.secret }),
    )
  ).id;
  ids.draft = (await create(org.clerk, letter(org, { subject: 'مسودة مذكرة لم تسجل' }), false)).id;
  // Distributed to department A for action, with a note: A's manager now sees it.
  ids.noted = (await create(org.clerk, letter(org, { subject: 'تعميم بخصوص الإجازات' }))).id;
  const dist = await call(h, {
    method: 'POST',
    url: `/correspondence/documents/${ids.noted}/distribution`,
    token: org.clerk.token,
    body: { items: [{ departmentId: org.deptA, type: 'forAction', notes: 'يرجى إبلاغ المسؤولين بالتعميم' }] },
  });
  expect(dist.status, JSON.stringify(dist.json)).toBe(200);
  await settleSearch(h);
}, SEARCH_TEST_TIMEOUT_MS);
afterAll(async () => {
  await h?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const scratch = mkdtempSync(join(tmpdir(), 'sijill-search-'));

async function attach(by: Actor, documentId: number, path: string) {
  const name = path.split('/').pop()!;
  const file = multipart(readFileSync(path), name, 'application/pdf');
  const res = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${documentId}/attachments`,
    headers: { ...file.headers, authorization: `Bearer ${by.token}` },
    payload: file.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: { id: number } }).data.id;
}

describe('search', () => {
  it('finds Arabic as written: prefixes, ta marbuta, hamza, diacritics', async () => {
    for (const q of ['بالمذكرات', 'مذكره', 'المذكرة', 'وزاره الصحة', 'لِلوِزارَةِ']) {
      expect(await found(org.clerk.token, q), q).toContain(ids.memo);
    }
    // A word no document has is left out, and named.
    const other = await search(org.clerk.token, { q: 'وزارة التعليم' });
    expect(other.json.data.missing).toEqual(['التعليم']);
    expect(await found(org.clerk.token, 'وزارة الصحة التعليم')).toContain(ids.memo);
    expect(await found(org.clerk.token, 'زنجفيل قرنفلي')).toEqual([]);
  });

  it('finds English by its stem', async () => {
    expect(await found(org.clerk.token, 'budget approved')).toEqual([ids.english]);
    expect(await found(org.clerk.token, 'letter run')).toEqual([ids.english]);
    // A compound written as two words is found however it is typed (src-shared/lexicon/english.ts).
    for (const q of ['followup', 'follow-up', 'follow up'])
      expect(await found(org.clerk.token, q), q).toEqual([ids.english]);
  });

  it('puts the document whose number is the query first, and finds a sender’s reference in any digits', async () => {
    const res = await search(org.clerk.token, { q: numbers.memo! });
    expect(res.status).toBe(200);
    expect(res.json.data.items[0].documentId).toBe(ids.memo);
    expect(res.json.data.items[0].numberMatch).toBe(true);
    const ref = await search(org.clerk.token, { q: 'م/ص/4567' });
    expect(ref.json.data.items[0].documentId).toBe(ids.reference);
    expect(ref.json.data.items[0].numberMatch).toBe(true);
  });

  it('marks the matched words in the subject and in the notes', async () => {
    const res = await search(org.clerk.token, { q: 'مذكرة' });
    const hit = res.json.data.items.find((i: { documentId: number }) => i.documentId === ids.memo);
    const subject = hit.snippets.find((s: { field: string }) => s.field === 'subject');
    const [a, b] = subject.highlights[0];
    expect(subject.text.slice(a, b)).toBe('المذكرات');
    const noted = await search(org.clerk.token, { q: 'مسئولين' });
    const note = noted.json.data.items[0].snippets.find((s: { field: string }) => s.field === 'notes');
    expect(note.text.slice(note.highlights[0][0], note.highlights[0][1])).toBe('المسؤولين');
  });

  it('filters by direction, state and dates, and pages with a total', async () => {
    expect(await found(org.clerk.token, 'مذكرة', { direction: 'out' })).toEqual([]);
    expect(await found(org.clerk.token, 'مذكرة', { state: 'draft' })).toEqual([ids.draft]);
    expect(await found(org.clerk.token, 'مذكرة', { fromDate: '2000-01-01', toDate: '2000-12-31' })).toEqual(
      [],
    );
    const page1 = await search(org.clerk.token, { q: 'مذكرة', pageSize: 1 });
    const page2 = await search(org.clerk.token, { q: 'مذكرة', pageSize: 1, page: 2 });
    expect(page1.json.data.total).toBeGreaterThanOrEqual(2);
    expect(page1.json.data.totalExact).toBe(true);
    expect(page1.json.data.items[0].documentId).not.toBe(page2.json.data.items[0].documentId);
  });

  it(
    'never finds what the caller may not see',
    async () => {
      const outsider = await found(org.outsider.token, 'مذكرة');
      expect(outsider).toEqual([]);
      // Department A's manager sees the distributed letter, and only it.
      expect(await found(org.managerA.token, 'تعميم الإجازات')).toEqual([ids.noted]);
      expect(await found(org.managerA.token, 'مذكرة')).toEqual([]);
      // Another user's draft is not found, not even by its exact subject.
      expect(await found(org.managerB.token, 'مسودة مذكرة لم تسجل')).toEqual([]);
      // A secret letter is not found by a manager without the clearance, even once distributed to them.
      await call(h, {
        method: 'POST',
        url: `/correspondence/documents/${ids.secret}/distribution`,
        token: org.clerk.token,
        body: { items: [{ departmentId: org.deptB, type: 'forAction' }] },
      });
      await settleSearch(h);
      expect(await found(org.managerB.token, 'مذكرة سرية')).toEqual([]);
      await h.query(`insert into user_clearances (user_id, security_level_id) values (${org.managerB.userId}, ${org.levels.secret})
      on conflict (user_id) do update set security_level_id = excluded.security_level_id`);
      expect(await found(org.managerB.token, 'مذكرة سرية')).toEqual([ids.secret]);
    },
    SEARCH_TEST_TIMEOUT_MS,
  );

  it('is a page of its own: a user without it gets 403', async () => {
    const role = await makeRole(h, { '/correspondence/inbox/incoming': ['view'] });
    const user = await makeUser(h, role);
    const res = await search(await signIn(h, user), { q: 'مذكرة' });
    expect(res.status).toBe(403);
  });

  it('refuses a bad query with a field message, and says so when only common words were typed', async () => {
    const long = await search(org.clerk.token, { q: 'م'.repeat(201) }, 'ar');
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.json)).toContain('q');
    expect((await search(org.clerk.token, { q: 'مذكرة\u0001' })).status).toBe(400);
    const stop = await search(org.clerk.token, { q: 'في من the' });
    expect(stop.status).toBe(200);
    expect(stop.json.data.terms).toEqual([]);
    expect(stop.json.data.items).toEqual([]);
  });

  it('leaves out a word no document has and names it, then shows the documents with most of the words', async () => {
    const relaxed = await search(org.clerk.token, { q: 'المذكرات زنجفيلية' });
    expect(relaxed.status).toBe(200);
    expect(relaxed.json.data.missing).toEqual(['زنجفيلية']);
    expect(relaxed.json.data.partial).toBe(false);
    expect(relaxed.json.data.items.map((i: { documentId: number }) => i.documentId)).toContain(ids.memo);
    // Every word is somewhere, never all together: the documents with most of them, named partial.
    const partial = await search(org.clerk.token, { q: 'الإجازات الميزانية الصحة' });
    expect(partial.json.data.partial).toBe(true);
    expect(partial.json.data.missing).toEqual([]);
    const shown = partial.json.data.items.map((i: { documentId: number }) => i.documentId);
    expect(shown).toEqual(expect.arrayContaining([ids.noted, ids.secret, ids.memo]));
    // A word the caller may not see is as missing as one nobody wrote: the outsider learns nothing.
    const outsider = await search(org.outsider.token, { q: 'مذكرات زنجفيلية' });
    expect(outsider.json.data.items).toEqual([]);
    expect(outsider.json.data.partial).toBe(false);
    // A department's manager (searched from what they may see): a word of theirs is kept, a word only in
    // documents they may not see is named as missing, as is one nobody wrote.
    const manager = await search(org.managerA.token, { q: 'تعميم المذكرات زنجفيلية' });
    expect(manager.json.data.missing).toEqual(['المذكرات', 'زنجفيلية']);
    expect(manager.json.data.items.map((i: { documentId: number }) => i.documentId)).toEqual([ids.noted]);
    // Every word found together: nothing said.
    const whole = await search(org.clerk.token, { q: 'المذكرات الواردة' });
    expect(whole.json.data.missing).toEqual([]);
    expect(whole.json.data.partial).toBe(false);
    // The common words typed are named.
    expect((await search(org.clerk.token, { q: 'المذكرات من الوزارة' })).json.data.ignored).toEqual(['من']);
  });

  it('finds a phrase typed between quotation marks as it is, and ranks the exact form above the stems', async () => {
    expect(await found(org.clerk.token, '"وزارة الصحة"')).toContain(ids.memo);
    expect(await found(org.clerk.token, '«وزارة الصحه»')).toContain(ids.memo);
    expect(await found(org.clerk.token, 'الصحة وزارة')).toContain(ids.memo);
    expect(await found(org.clerk.token, '"الصحة وزارة"')).not.toContain(ids.memo);
    // A newer letter with the same stems in other forms, more often: the subject with the words as
    // typed, in order, comes first all the same.
    const exact = (await create(org.clerk, letter(org, { subject: 'طلب صيانة المكيفات المركزية' }))).id;
    const stems = (
      await create(
        org.clerk,
        letter(org, { subject: 'المكيف والمكيفات بحاجة إلى الصيانة والصيانات الدورية' }),
      )
    ).id;
    await settleSearch(h);
    const ranked = await found(org.clerk.token, 'صيانة المكيفات');
    expect(ranked.slice(0, 2)).toEqual([exact, stems]);
    expect((await found(org.clerk.token, 'المكيف الصيانة'))[0]).toBe(stems);
  });

  it('suggests as the box is typed: a number by its beginning, a subject by its words, the last one begun', async () => {
    const suggest = async (token: string, q: string) => {
      const res = await call(h, {
        method: 'GET',
        url: `/search/suggest?${new URLSearchParams({ q })}`,
        token,
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json.data as { documentId: number; kind: string; docNumber: string | null }[];
    };
    const byNumber = await suggest(org.clerk.token, numbers.memo!.toLowerCase());
    expect(byNumber[0]).toMatchObject({ documentId: ids.memo, kind: 'number', docNumber: numbers.memo });
    const begun = await suggest(org.clerk.token, numbers.memo!.slice(0, -1));
    expect(begun.filter((s) => s.kind === 'number').map((s) => s.documentId)).toContain(ids.memo);
    expect(
      begun.every((s) => s.kind !== 'number' || s.docNumber!.startsWith(numbers.memo!.slice(0, -1))),
    ).toBe(true);
    for (const q of ['مذك', 'المذكر', 'وزارة الصح', 'وزاره الصحه بالمذ']) {
      const found = await suggest(org.clerk.token, q);
      expect(
        found.filter((s) => s.kind === 'subject').map((s) => s.documentId),
        q,
      ).toContain(ids.memo);
    }
    expect((await suggest(org.clerk.token, 'budg')).map((s) => s.documentId)).toEqual([ids.english]);
    // Two letters are not enough to ask; and nothing the caller may not see is suggested.
    expect(await suggest(org.clerk.token, 'مذ')).toEqual([]);
    expect(await suggest(org.outsider.token, 'مذك')).toEqual([]);
    expect(await suggest(org.outsider.token, numbers.memo!.slice(0, -1))).toEqual([]);
    const bad = await call(h, { method: 'GET', url: '/search/suggest?q=', token: org.clerk.token });
    expect(bad.status).toBe(400);
  });

  it(
    'remakes an index entry made by an older lexicon from the stored text, the old entry answering meanwhile',
    async () => {
      const doc = (await create(org.clerk, letter(org, { subject: 'تهنئة بافتتاح مبنى جديد' }))).id;
      await settleSearch(h);
      // An attachment whose text was read and indexed by the old rules (no lexemes for جامعتنا's stem).
      const [att] = await h.query<{ id: number }>(`insert into document_attachments
          (document_id, sha256, file_name, size, mime, text_status, text_pages, text_pages_done)
        values (${doc}, repeat('ab', 32), 'old.pdf', 100, 'application/pdf', 'done', 1, 1) returning id`);
      await settleSearch(h);
      await h.query(`insert into attachment_pages (attachment_id, page, method, text, lexemes, lexicon, reader)
        values (${att!.id}, 1, 'text', 'يسر جامعتنا دعوتكم', to_tsvector('simple', 'جامعتنا'), 1, ${READER_VERSION})
        on conflict (attachment_id, page) do update set text = excluded.text, lexemes = excluded.lexemes,
          lexicon = 1`);
      await h.query(`update document_search set lexicon = 1, lexemes = to_tsvector('simple', 'تهنئه')
        where document_id in (${doc}, ${ids.english})`);
      expect(await found(org.clerk.token, 'جامعة')).not.toContain(doc);
      expect(await found(org.clerk.token, 'budget')).not.toContain(ids.english);

      await enqueueMissingSearchWork({ db: h.database.db } as unknown as ServerContext);
      await settleSearch(h);
      const stale = await h.query<{ n: number }>(`select
          (select count(*) from document_search where lexicon < ${LEXICON_VERSION})
          + (select count(*) from attachment_pages where lexicon < ${LEXICON_VERSION}) as n`);
      expect(Number(stale[0]!.n)).toBe(0);
      expect(await found(org.clerk.token, 'جامعة')).toContain(doc);
      expect(await found(org.clerk.token, 'budget')).toContain(ids.english);
    },
    SEARCH_TEST_TIMEOUT_MS,
  );

  describe('the text of attachments', () => {
    it.skipIf(!canMakePdfs())(
      'reads a born-digital Arabic letter (stored visually) and a scan, and finds them by a word inside',
      async () => {
        const digital = (await create(org.clerk, letter(org, { subject: 'خطاب بلا كلمات مميزة ١' }))).id;
        const scanned = (await create(org.clerk, letter(org, { subject: 'خطاب بلا كلمات مميزة ٢' }))).id;
        const digitalFile = await makeBornDigitalPdf(
          ['تفيد الإدارة العامة للمشتريات بأن المناقصة رقم 45 قد أُرسيت.', 'Procurement tender awarded.'],
          scratch,
        );
        const scanFile = await makeScannedPdf(
          ['نرجو إحاطة المسؤولين بموعد الاجتماع السنوي للجمعية'],
          scratch,
        );
        const a1 = await attach(org.clerk, digital, digitalFile);
        const a2 = await attach(org.clerk, scanned, scanFile);
        const before = await call(h, {
          method: 'GET',
          url: `/correspondence/documents/${scanned}/attachments`,
          token: org.clerk.token,
        });
        expect(['pending', 'reading', 'done']).toContain(before.json.data[0].text.status);
        await settleSearch(h);
        const texts = await h.query<{ attachment_id: number; method: string; text: string }>(
          `select attachment_id, method, text from attachment_pages where attachment_id in (${a1}, ${a2}) order by attachment_id`,
        );
        expect(texts.map((t) => t.method)).toEqual(['text', 'ocr']);
        expect(texts[0]!.text).toContain('الإدارة العامة للمشتريات');
        // Found by words of the letter, typed as people type them (no hamza, ه for ة, a prefix).
        expect(await found(org.clerk.token, 'المشتريات المناقصه')).toEqual([digital]);
        expect(await found(org.clerk.token, 'tenders awarded')).toEqual([digital]);
        expect(await found(org.clerk.token, 'الاجتماع السنوي للجمعيه')).toEqual([scanned]);
        expect(await found(org.clerk.token, 'مسئولين')).toContain(scanned);
        // The passage comes from the attachment, with its file and page, the words marked.
        const res = await search(org.clerk.token, { q: 'الاجتماع السنوي' });
        const passage = res.json.data.items[0].snippets.find(
          (p: { field: string }) => p.field === 'attachment',
        );
        expect(passage.attachment).toMatchObject({ id: a2, page: 1 });
        expect(passage.highlights.length).toBeGreaterThanOrEqual(2);
        // The attachment says it was read, and its text is there to read.
        const text = await call(h, {
          method: 'GET',
          url: `/correspondence/documents/${scanned}/attachments/${a2}/text`,
          token: org.clerk.token,
        });
        expect(text.json.data.status).toBe('done');
        expect(text.json.data.pages[0].method).toBe('ocr');
        // Nobody else finds the letter by a word of its attachment.
        expect(await found(org.outsider.token, 'المشتريات')).toEqual([]);
        expect(await found(org.managerB.token, 'الاجتماع السنوي')).toEqual([]);
        const hidden = await call(h, {
          method: 'GET',
          url: `/correspondence/documents/${scanned}/attachments/${a2}/text`,
          token: org.outsider.token,
        });
        expect(hidden.status).toBe(404);
      },
      SEARCH_TEST_TIMEOUT_MS,
    );

    it.skipIf(!canMakePdfs())(
      'a file that is not a readable PDF is marked failed, with its reason',
      async () => {
        const id = (await create(org.clerk, letter(org, { subject: 'خطاب بمرفق تالف' }), false)).id;
        const broken = makeBrokenPdf(scratch);
        // The upload checks refuse a broken file; one stored before those checks (or damaged since) is
        // recorded as such when read. Stored straight in the file store and the table here.
        const bytes = readFileSync(broken);
        const stored = await (
          await import('../../src-server/storage/files')
        )
          .createLocalFileStore(h.filesDir)
          .put(bytes);
        const [row] = await h.query<{ id: number }>(
          `insert into document_attachments (document_id, sha256, file_name, size, mime)
         values (${id}, '${stored.sha256}', 'broken.pdf', ${stored.size}, 'application/pdf') returning id`,
        );
        await settleSearch(h);
        const [state] = await h.query<{ text_status: string; text_error: string }>(
          `select text_status, text_error from document_attachments where id = ${row!.id}`,
        );
        expect(state!.text_status).toBe('failed');
        expect(state!.text_error).toBeTruthy();
        const dead = await h.query(
          `select state from background_jobs where kind = 'search.read' and payload->>'attachmentId' = '${row!.id}'`,
        );
        expect(dead).toEqual([{ state: 'dead' }]);
      },
      SEARCH_TEST_TIMEOUT_MS,
    );
  });
  it.skipIf(!canMakePdfs())(
    'reads again from the file the pages an older reader took from a text layer, and keeps the pages of OCR',
    async () => {
      const doc = (await create(org.clerk, letter(org, { subject: 'خطاب قرأه قارئ قديم' }))).id;
      const file = await makeBornDigitalPdf(['تعميم بشأن صيانة المستودعات الرئيسية'], scratch);
      const read = await attach(org.clerk, doc, file);
      await settleSearch(h);
      // As an older reader left it: letters swapped at a ligature and words glued (issue 25, item 10).
      await h.query(`update attachment_pages set text = 'تعميمبشأن صيانةالمستودعات', reader = 1,
          lexemes = to_tsvector('simple', 'تعميمبشان صيانهالمستودعات') where attachment_id = ${read}`);
      await h.query(
        `update document_search set lexemes = to_tsvector('simple', 'خطاب') where document_id = ${doc}`,
      );
      // A scan's page read by OCR, by the same old reader: its file is not read again.
      const [scan] = await h.query<{ id: number }>(`insert into document_attachments
          (document_id, sha256, file_name, size, mime, text_status, text_pages, text_pages_done)
        values (${doc}, repeat('cd', 32), 'scan.pdf', 100, 'application/pdf', 'done', 1, 1) returning id`);
      await settleSearch(h);
      await h.query(`insert into attachment_pages (attachment_id, page, method, text, lexemes, lexicon, reader)
        values (${scan!.id}, 1, 'ocr', 'نص مقروء بالتعرف الضوئي', to_tsvector('simple', 'نص'), ${LEXICON_VERSION}, 1)
        on conflict (attachment_id, page) do update set method = 'ocr', text = excluded.text, reader = 1`);
      expect(await found(org.clerk.token, 'المستودعات')).not.toContain(doc);

      await enqueueMissingSearchWork({ db: h.database.db } as unknown as ServerContext);
      await settleSearch(h);
      const pages = await h.query<{ attachment_id: number; method: string; text: string; reader: number }>(
        `select attachment_id, method, text, reader from attachment_pages
          where attachment_id in (${read}, ${scan!.id}) order by attachment_id`,
      );
      expect(pages.map((p) => [p.attachment_id, p.method])).toEqual([
        [read, 'text'],
        [scan!.id, 'ocr'],
      ]);
      expect(pages[0]!.text).toContain('المستودعات الرئيسية');
      expect(pages[0]!.reader).toBe(READER_VERSION);
      expect(pages[1]!.text).toBe('نص مقروء بالتعرف الضوئي');
      expect(await found(org.clerk.token, 'المستودعات')).toContain(doc);
      const [attachment] = await h.query<{ text_status: string }>(
        `select text_status from document_attachments where id = ${read}`,
      );
      expect(attachment!.text_status).toBe('done');
    },
    SEARCH_TEST_TIMEOUT_MS,
  );

  describe('without words', () => {
    type Who = 'clerk' | 'managerA';
    type Filters = Record<string, string | number>;

    /** Every page of a filters-only search, and what the first page said. */
    async function listed(token: string, filters: Filters, pageSize = 50) {
      const first = await search(token, { ...filters, pageSize });
      expect(first.status, JSON.stringify(first.json)).toBe(200);
      const all: number[] = [];
      for (let page = 1; (page - 1) * pageSize < first.json.data.total; page += 1) {
        const res = page === 1 ? first : await search(token, { ...filters, pageSize, page });
        all.push(...(res.json.data.items as { documentId: number }[]).map((i) => i.documentId));
      }
      return { ids: all, data: first.json.data };
    }

    /**
     * What the user may see that the filters keep, newest first: the rules written out plainly for this
     * organisation (no index, no candidates, no limit), to check the search against.
     */
    async function expected(who: Who, f: Filters): Promise<number[]> {
      const user = org[who];
      const departments = who === 'clerk' ? [org.archive] : [org.deptA];
      const [{ clearance }] = (await h.query<{ clearance: number }>(
        `select coalesce((select s.level from user_clearances c join correspondence_settings s
            on s.id = c.security_level_id where c.user_id = ${user.userId}),
          (select min(level) from correspondence_settings where list = 'security-levels' and active), 0)::int
          as clearance`,
      )) as [{ clearance: number }];
      const where = [
        `d.security_rank <= ${clearance}`,
        `(d.created_by = ${user.userId}
          or (d.state in ('registered', 'approved') and (
            ${who === 'clerk' ? `d.archive_department_id = ${org.archive} or` : ''}
            d.id in (select document_id from distributions where department_id in (${departments.join(',')}))
            or d.id in (select document_id from tasks where employee_id = ${user.employeeId})))
          or (d.state <> 'draft' and d.id in (select document_id from approval_members where user_id = ${user.userId})))`,
      ];
      if (f.direction) where.push(`d.direction = '${f.direction}'`);
      if (f.state) where.push(`d.state = '${f.state}'`);
      if (f.securityLevelId) where.push(`d.security_level_id = ${f.securityLevelId}`);
      if (f.codificationId) where.push(`d.codification_id = ${f.codificationId}`);
      if (f.fromDate) where.push(`coalesce(d.registered_at, d.created_at) >= '${f.fromDate}'::date`);
      if (f.toDate) where.push(`coalesce(d.registered_at, d.created_at) < '${f.toDate}'::date + 1`);
      if (f.departmentId) {
        const dep = f.departmentId;
        where.push(`(${dep} in (d.department_id, d.sender_department_id, d.recipient_department_id,
          d.archive_department_id)
          or d.id in (select document_id from distributions where department_id = ${dep})
          or d.id in (select document_id from document_recipients where department_id = ${dep}))`);
      }
      const rows = await h.query<{ id: number }>(
        `select d.id from documents d where ${where.join(' and ')} order by d.id desc`,
      );
      return rows.map((r) => Number(r.id));
    }

    it(
      'lists the documents the filters keep that the caller may see, newest first, and nothing without a filter',
      async () => {
        // More letters: for department A (one of them secret), for department B, and one not yet filed.
        const forA: number[] = [];
        for (let i = 1; i <= 4; i += 1)
          forA.push((await create(org.clerk, letter(org, { subject: `خطاب للإدارة أ رقم ${i}` }))).id);
        const secretForA = (
          await create(
            org.clerk,
            letter(org, { subject: 'خطاب سري للإدارة أ', securityLevelId: org.levels.secret }),
          )
        ).id;
        for (const id of [...forA, secretForA]) {
          const res = await call(h, {
            method: 'POST',
            url: `/correspondence/documents/${id}/distribution`,
            token: org.clerk.token,
            body: { items: [{ departmentId: org.deptA, type: 'forKnowledge' }] },
          });
          expect(res.status, JSON.stringify(res.json)).toBe(200);
        }
        for (let i = 1; i <= 2; i += 1)
          await create(
            org.clerk,
            letter(org, { subject: `خطاب للإدارة ب رقم ${i}`, recipientDepartmentId: org.deptB }),
          );
        await create(org.clerk, letter(org, { subject: 'خطاب لم يسجل بعد' }), false);
        const [{ today }] = (await h.query<{ today: string }>(`select current_date::text as today`)) as [
          { today: string },
        ];

        const cases: Filters[] = [
          { direction: 'in' },
          { direction: 'out' },
          { state: 'draft' },
          { departmentId: org.deptA },
          { departmentId: org.deptB },
          { direction: 'in', fromDate: today, toDate: today, departmentId: org.deptA },
          { fromDate: '2000-01-01', toDate: '2000-12-31' },
          { securityLevelId: org.levels.secret },
          { codificationId: org.codIn, q: '   ' },
        ];
        for (const who of ['clerk', 'managerA'] as const) {
          for (const f of cases) {
            const want = await expected(who, f);
            const got = await listed(org[who].token, f);
            expect(got.ids, `${who} ${JSON.stringify(f)}`).toEqual(want);
            expect(got.data.total).toBe(want.length);
            expect(got.data.totalExact).toBe(true);
            expect(got.data.terms).toEqual([]);
          }
        }
        // Not empty lists: the checks above compare something.
        const clerkIn = await expected('clerk', { direction: 'in' });
        expect(clerkIn).toEqual(expect.arrayContaining([...forA, secretForA, ids.secret]));
        const managerIn = await expected('managerA', { direction: 'in' });
        expect(managerIn).toEqual(expect.arrayContaining([...forA, ids.noted]));
        // Nobody gets a document above their clearance or outside what they may see.
        const managerA = (await listed(org.managerA.token, { direction: 'in' })).ids;
        expect(managerA).not.toContain(secretForA);
        expect(managerA).not.toContain(ids.memo);
        expect((await listed(org.clerk.token, { departmentId: org.deptA })).ids).toContain(secretForA);
        expect((await listed(org.outsider.token, { direction: 'in' })).ids).toEqual([]);
        expect((await listed(org.managerB.token, { state: 'draft' })).ids).toEqual([]);

        // Each hit's passage is its subject, nothing marked.
        const page = await search(org.managerA.token, { direction: 'in', pageSize: 1 });
        expect(page.json.data.items[0]).toMatchObject({
          documentId: managerIn[0],
          numberMatch: false,
          snippets: [{ field: 'subject', highlights: [], attachment: null }],
        });

        // Paged as a search: pages of two make the same list; past the last, nothing but the total.
        const byTwo = await listed(org.clerk.token, { direction: 'in' }, 2);
        expect(byTwo.ids).toEqual(clerkIn);
        expect(byTwo.data.total).toBe(clerkIn.length);
        const past = await search(org.clerk.token, { direction: 'in', pageSize: 2, page: 500 });
        expect(past.json.data).toMatchObject({ items: [], total: clerkIn.length, totalExact: true });
        const beyond = await search(org.clerk.token, { direction: 'in', pageSize: 50, page: 21 });
        expect(beyond.json.data).toMatchObject({ items: [], totalExact: false });

        // Neither words nor a filter: nothing (the boxes list everything), however the words are left out.
        for (const query of [{}, { q: '' }, { q: '  ' }, { q: '', page: 2 }] as Filters[]) {
          const none = await search(org.clerk.token, query);
          expect(none.status, JSON.stringify(none.json)).toBe(200);
          expect(none.json.data).toMatchObject({ items: [], total: 0, totalExact: true, terms: [] });
        }
      },
      SEARCH_TEST_TIMEOUT_MS,
    );

    it(
      'a department filter finds a document by each of the six ways it belongs to the department, once, and none of another',
      async () => {
        const [model] = await h.query<Record<string, unknown>>(
          `select codification_id, security_level_id, security_rank from documents where id = ${ids.english}`,
        );
        for (const who of ['clerk', 'managerA'] as const) {
          const user = org[who];
          // A clerk (who sees broadly) any department; a manager their own (both read from the department's
          // indexes), and another (read from what they may see).
          const dep = who === 'clerk' ? await department(h, 'إدارة التصفية') : org.deptA;
          const other = await department(h, `إدارة أخرى ${who}`);
          /** A registered letter the user created (so they see it), held by `archive`, with `columns` set. */
          const insert = async (
            subject: string,
            columns: Record<string, number> = {},
            archive = org.archive,
          ) => {
            const names = Object.keys(columns);
            const [row] = await h.query<{ id: number }>(
              `insert into documents (direction, state, subject, codification_id, security_level_id,
                 security_rank, archive_department_id, created_by, registered_at
                 ${names.map((n) => `, ${n}`).join('')})
               values ('in', 'registered', '${subject}', ${Number(model!.codification_id)},
                 ${Number(model!.security_level_id)}, ${Number(model!.security_rank)}, ${archive},
                 ${user.userId}, now() ${names.map((n) => `, ${columns[n]}`).join('')})
               returning id`,
            );
            return Number(row!.id);
          };
          const distribute = (id: number, to: number) =>
            h.query(`insert into distributions (document_id, department_id, type, registered_at)
              values (${id}, ${to}, 'forKnowledge', now())`);
          const recipientRow = (id: number, to: number) =>
            h.query(`insert into document_recipients (document_id, department_id) values (${id}, ${to})`);

          const ways: Record<string, number> = {
            department: await insert('بإدارتها', { department_id: dep }),
            sender: await insert('من مرسلها', { sender_department_id: dep }),
            recipient: await insert('إلى المستلم', { recipient_department_id: dep }),
            archive: await insert('في أرشيفها', {}, dep),
            distribution: await insert('بتوزيع'),
            recipientRow: await insert('بمستلم مذكرة'),
          };
          await distribute(ways.distribution!, dep);
          await recipientRow(ways.recipientRow!, dep);
          // Belonging two ways counts once; belonging to another department in every way, not at all.
          const twice = await insert('بطريقتين', { department_id: dep, recipient_department_id: dep });
          await distribute(twice, dep);
          const elsewhere = await insert(
            'لإدارة أخرى',
            { department_id: other, sender_department_id: other, recipient_department_id: other },
            other,
          );
          await distribute(elsewhere, other);
          await recipientRow(elsewhere, other);

          const mine = [...Object.values(ways), twice].sort((a, b) => b - a);
          const want = await expected(who, { departmentId: dep });
          // The clerk's department holds these alone; the manager's, what it held before as well.
          if (who === 'clerk') expect(want).toEqual(mine);
          else expect(want).toEqual(expect.arrayContaining(mine));
          const got = await listed(user.token, { departmentId: dep });
          expect(got.ids, who).toEqual(want);
          expect(got.data).toMatchObject({ total: want.length, totalExact: true });
          // Paged by two, the same list; with another filter, the same rule.
          expect((await listed(user.token, { departmentId: dep }, 2)).ids).toEqual(want);
          for (const f of [
            { departmentId: dep, direction: 'out' } as Filters,
            { departmentId: dep, fromDate: '2000-01-01' },
            { departmentId: dep, toDate: '2000-01-01' },
          ])
            expect((await listed(user.token, f)).ids).toEqual(await expected(who, f));
          expect((await listed(user.token, { departmentId: other })).ids).toEqual([elsewhere]);
        }
      },
      SEARCH_TEST_TIMEOUT_MS,
    );

    it(
      'counts exactly up to the most a search pages through, then says "more than"',
      async () => {
        // SEARCH_MAX_RESULTS + 1 filed letters held by the archive, written straight in the table.
        const [{ n }] = (await h.query<{ n: number }>(
          `select count(*)::int as n from documents where archive_department_id = ${org.archive}`,
        )) as [{ n: number }];
        const [model] = await h.query<Record<string, unknown>>(
          `select * from documents where id = ${ids.english}`,
        );
        const needed = SEARCH_MAX_RESULTS + 1 - n;
        await h.query(`insert into documents (direction, state, subject, codification_id, security_level_id,
          security_rank, archive_department_id, created_by, registered_at, sender_department_id)
        select 'in', 'registered', 'خطاب مولد ' || g, ${Number(model!.codification_id)},
          ${Number(model!.security_level_id)}, ${Number(model!.security_rank)}, ${org.archive},
          ${org.clerk.userId}, now() - interval '1 year', ${org.sender}
        from generate_series(1, ${needed}) g`);
        const more = await search(org.clerk.token, { direction: 'in', pageSize: 50 });
        expect(more.json.data).toMatchObject({ total: SEARCH_MAX_RESULTS, totalExact: false });
        expect(more.json.data.items).toHaveLength(50);
        // The last page that may be read, and the newest first as ever.
        const last = await search(org.clerk.token, { direction: 'in', pageSize: 50, page: 20 });
        expect(last.json.data.items).toHaveLength(50);
        const ids20 = (last.json.data.items as { documentId: number }[]).map((i) => i.documentId);
        expect(ids20).toEqual([...ids20].sort((a, b) => b - a));
        // The archive office's department filter, read from its indexes: "more than" too, the same
        // documents in the same order as the rule written out.
        const archived = await expected('clerk', { departmentId: org.archive });
        expect(archived.length).toBeGreaterThan(SEARCH_MAX_RESULTS);
        const byArchive = await search(org.clerk.token, {
          departmentId: org.archive,
          pageSize: 50,
          page: 20,
        });
        expect(byArchive.json.data).toMatchObject({ total: SEARCH_MAX_RESULTS, totalExact: false });
        expect((byArchive.json.data.items as { documentId: number }[]).map((i) => i.documentId)).toEqual(
          archived.slice(950, 1000),
        );
        // Narrowed by a filter, exact again.
        const narrow = await search(org.clerk.token, { direction: 'in', departmentId: org.deptA });
        expect(narrow.json.data.totalExact).toBe(true);
      },
      SEARCH_TEST_TIMEOUT_MS,
    );
  });

  it.runIf(!!process.env.SIJILL_TEST_DATABASE_URL)(
    'a document deleted while its entry is rebuilt (a destruction and an index job at once): the entry goes with it, the rebuild does not fail',
    async () => {
      const id = (await create(org.clerk, letter(org, { subject: 'وثيقة تتلف أثناء فهرستها' }))).id;
      await settleSearch(h);
      const other = new pg.Client({ connectionString: h.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('delete from documents where id = $1', [id]);
        const rebuilt = reindexDocument(h.database.db, id).then(
          (indexed) => ({ indexed }),
          (error: unknown) => ({ error: String(error) }),
        );
        // The rebuild waits on the deletion (wherever it waits); then the deletion commits.
        const waiting = async () =>
          (
            await other.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
            )
          ).rows[0]!.n;
        const deadline = Date.now() + 60_000;
        while ((await waiting()) === 0) {
          if (Date.now() > deadline) throw new Error('the rebuild never waited on the deletion');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await other.query('commit');
        expect(await rebuilt).toEqual({ indexed: false });
        expect(await h.query(`select 1 from document_search where document_id = ${id}`)).toEqual([]);
      } finally {
        await other.end();
      }
    },
  );
});
