/**
 * GET /search: Arabic as written (hamza, ta marbuta, prefixes), English stems, numbers first, passages
 * with the matched words, filters, paging, its own page permission, and the one visibility predicate — a
 * user never finds what they may not see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org, type Actor } from './support/correspondence';
import { SEARCH_TEST_TIMEOUT_MS, settleSearch } from './support/search';
import { enqueueMissingSearchWork } from '../../src-server/modules/search/jobs';
import type { ServerContext } from '../../src-server/context';
import { LEXICON_VERSION } from '../../src-shared/search';
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
      letter(org, { subject: 'Annual budgets approval', summary: 'Letters about running costs' }),
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
    const empty = await search(org.clerk.token, { q: '' }, 'ar');
    expect(empty.status).toBe(400);
    const long = await search(org.clerk.token, { q: 'م'.repeat(201) });
    expect(long.status).toBe(400);
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
      await h.query(`insert into attachment_pages (attachment_id, page, method, text, lexemes, lexicon)
        values (${att!.id}, 1, 'text', 'يسر جامعتنا دعوتكم', to_tsvector('simple', 'جامعتنا'), 1)
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
});
