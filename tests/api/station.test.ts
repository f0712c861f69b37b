/**
 * The scanning station against a real server over HTTP (the harness app listening on loopback), with
 * real folders and its real SQLite queue: every state of a file and every failure path — a half-written
 * file, system files, every other kind of file taken or rejected by its bytes (text, Word, empty, a PDF
 * named .txt or without extension, links), each reason's note in both languages (not a PDF, damaged,
 * encrypted, active content, too large, archived, no such number, a refusal in the server's words), too
 * large (locally and 413), the same file
 * twice (locally and by the server), the server down (back-off, stuck, retry), an answer lost after the
 * server registered the file, a restart mid-upload, a move that fails, and a name carrying a number.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StationQueue } from '../../src-main/station/queue';
import { Station } from '../../src-main/station/station';
import { httpTransport, type IntakeAnswer, type StationTransport } from '../../src-main/station/transport';
import { call, countRows, startHarness, type Harness } from './support/harness';
import { organisation, registeredLetter, type Org } from './support/correspondence';
import { encryptedPdf, largePdf, minimalPdf, pdfWith } from './support/files';

const LIMIT = 3 * 1024 * 1024;
let h: Harness;
let org: Org;
let baseUrl: string;
let root: string;

beforeAll(async () => {
  h = await startHarness({ UPLOAD_MAX_BYTES: String(LIMIT) });
  org = await organisation(h);
  baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
  root = mkdtempSync(join(tmpdir(), 'sijill-station-'));
});
afterAll(async () => {
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

const transportFor = (url = baseUrl, token = org.clerk.token): StationTransport =>
  httpTransport({
    baseUrl: () => url,
    headers: () => ({
      Accept: 'application/json',
      'Accept-Language': 'en',
      Authorization: `Bearer ${token}`,
    }),
    ready: () => true,
  });

let folder: string;
let queue: StationQueue;
let dbFile: string;
let n = 0;
beforeEach(() => {
  n += 1;
  folder = join(root, `in-${n}`);
  mkdirSync(folder);
  dbFile = join(root, `station-${n}.sqlite`);
  queue = StationQueue.open(dbFile);
  return () => queue.close();
});

function station(transport = transportFor(), extra: Partial<ConstructorParameters<typeof Station>[0]> = {}) {
  return new Station({
    queue,
    transport,
    folders: [folder],
    stableMs: 150,
    scanIntervalMs: 60_000, // the tests drive passes themselves
    backoffMs: () => 0,
    maxAttempts: 3,
    ...extra,
  });
}

/** Passes until nothing is waiting, queued, uploading or moving (or `limit` passes). */
async function settle(s: Station, limit = 40) {
  for (let i = 0; i < limit; i++) {
    await s.tick();
    await s.drain();
    const c = queue.counts();
    if (c.waiting + c.queued + c.uploading + c.moving === 0) return;
    await new Promise((r) => setTimeout(r, 60));
  }
}

const list = (sub = '') => (existsSync(join(folder, sub)) ? readdirSync(join(folder, sub)).sort() : []);
const files = () => list().filter((f) => f !== 'processed' && f !== 'rejected');
const drop = (name: string, bytes: Buffer | string) => writeFileSync(join(folder, name), bytes);

/** Runs `body` with the station started on its own timers and watch (stopped after, whatever happens). */
async function running(s: Station, body: () => Promise<void>) {
  s.start();
  try {
    await body();
  } finally {
    await s.stop();
  }
}

/** A ceiling for waits on real work (a file taken and uploaded): a guard against a hang, not a speed limit. */
const CEILING_MS = 3 * 60_000;

/** What processed/ holds once something arrives there, or after `ms` (then likely nothing). */
async function processedWithin(ms = CEILING_MS) {
  const until = Date.now() + ms;
  while (list('processed').length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return list('processed');
}

describe('scanning station', () => {
  it('turns a dropped PDF into an incoming draft and moves it to processed/', async () => {
    drop('وارد 1.pdf', minimalPdf(`station ${n}`));
    const s = station();
    await settle(s);
    expect(list('processed')).toEqual(['وارد 1.pdf']);
    expect(files()).toEqual([]);
    const [done] = queue.recent();
    expect(done).toMatchObject({ state: 'done', outcome: 'processed' });
    const doc = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${done!.documentId}`,
      token: org.clerk.token,
    });
    expect(doc.json.data).toMatchObject({ direction: 'in', state: 'draft', subject: 'وارد 1' });
  });

  it(
    'a running station takes a dropped file on its change event, without waiting for a rescan',
    async () => {
      // Rescans an hour apart: only the folder's change event and the look again once the file has
      // settled can bring the file in within the wait below (minutes).
      const s = station(undefined, { scanIntervalMs: 3_600_000, stableMs: 150 });
      await running(s, async () => {
        await new Promise((r) => setTimeout(r, 200)); // the first pass (an empty folder) is over
        drop('حدث 1.pdf', minimalPdf(`event ${n}`));
        expect(await processedWithin()).toEqual(['حدث 1.pdf']);
      });
    },
    CEILING_MS + 60_000,
  );

  it(
    'polling: no change events; the rescans bring the file in',
    async () => {
      const s = station(undefined, { scanIntervalMs: 300, stableMs: 150, polling: true });
      await running(s, async () => {
        drop('poll 1.pdf', minimalPdf(`poll ${n}`));
        expect(await processedWithin()).toEqual(['poll 1.pdf']);
      });
    },
    CEILING_MS + 60_000,
  );

  it('waits while a file is still being written, and ignores system and temporary files', async () => {
    const bytes = minimalPdf(`half ${n}`);
    drop('scan.pdf', bytes.subarray(0, 40));
    for (const name of [
      'desktop.ini',
      'Thumbs.db',
      '._scan.pdf',
      'scan.pdf.part',
      '~$draft.pdf',
      '.hidden.pdf',
    ])
      drop(name, minimalPdf(name));
    const s = station();
    await s.tick();
    expect(queue.counts().waiting).toBe(1);
    // The scanner writes on: each pass sees a new size, so the file is never taken half-written.
    for (let i = 1; i <= 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      drop('scan.pdf', bytes.subarray(0, 40 + i * 20));
      await s.tick();
      expect(queue.counts().queued + queue.counts().uploading).toBe(0);
    }
    drop('scan.pdf', bytes);
    await new Promise((r) => setTimeout(r, 200));
    await settle(s);
    expect(list('processed')).toEqual(['scan.pdf']);
    expect(new Set(files())).toEqual(
      new Set(['.hidden.pdf', 'Thumbs.db', '._scan.pdf', 'desktop.ini', 'scan.pdf.part', '~$draft.pdf']),
    );
    expect(queue.counts().done).toBe(1);
  });

  it('takes or rejects every file that is not a system or temporary one, judging it by its bytes, not its name', async () => {
    const docx = Buffer.concat([
      Buffer.from('PK\x03\x04\x14\x00', 'latin1'),
      Buffer.from('word/document.xml'),
    ]);
    const kinds: [string, Buffer | string][] = [
      ['notes.txt', 'minutes of the meeting, typed'],
      ['letter.docx', docx],
      ['photo.pdf', Buffer.from('\x89PNG\r\n\x1a\n not a pdf', 'latin1')],
      ['empty.pdf', ''],
      ['scan0002', minimalPdf(`no extension ${n}`)], // a PDF without extension
      ['scan0003.txt', minimalPdf(`named txt ${n}`)], // a PDF named as text
      ['scan0004.PDF', minimalPdf(`upper case ${n}`)],
    ];
    for (const [name, bytes] of kinds) drop(name, bytes);
    // A link to a PDF is a dropped file too; a link to a folder is not a file.
    writeFileSync(join(root, `linked-${n}.pdf`), minimalPdf(`linked ${n}`));
    symlinkSync(join(root, `linked-${n}.pdf`), join(folder, 'linked.pdf'));
    mkdirSync(join(root, `folder-${n}`));
    symlinkSync(join(root, `folder-${n}`), join(folder, 'a folder'));
    await settle(station());
    // Nothing but the link to a folder is left in the watched folder.
    expect(files()).toEqual(['a folder']);
    expect(list('processed')).toEqual(['linked.pdf', 'scan0002', 'scan0003.txt', 'scan0004.PDF']);
    expect(list('rejected')).toEqual(
      ['empty.pdf', 'letter.docx', 'notes.txt', 'photo.pdf'].flatMap((f) => [f, `${f}.txt`]),
    );
    for (const name of ['notes.txt', 'letter.docx', 'photo.pdf', 'empty.pdf']) {
      const [arabic, english] = readFileSync(join(folder, 'rejected', `${name}.txt`), 'utf8').split('\n\n');
      expect(arabic).toContain('الملف ليس PDF: محتواه ليس مستند PDF أيًّا كان اسمه');
      expect(english).toContain(
        'The file is not a PDF: its content is not a PDF document, whatever its name says',
      );
      // Nobody selected anything: the specification's upload wording is not a station's note.
      expect(`${arabic}${english}`).not.toMatch(/Please select|يرجى اختيار/);
    }
    // The PDFs became drafts named after their files, their attachments named as PDFs.
    const named = async (name: string) => {
      const row = queue.recent().find((f) => f.name === name)!;
      const doc = await call(h, {
        method: 'GET',
        url: `/correspondence/documents/${row.documentId}`,
        token: org.clerk.token,
      });
      return [doc.json.data.subject, doc.json.data.attachments.map((a: { fileName: string }) => a.fileName)];
    };
    expect(await named('scan0002')).toEqual(['scan0002', ['scan0002.pdf']]);
    expect(await named('scan0003.txt')).toEqual(['scan0003.txt', ['scan0003.txt.pdf']]);
    expect(await named('scan0004.PDF')).toEqual(['scan0004', ['scan0004.PDF']]);
  });

  it('says in each rejection note what happened to the file and what to do, each half in its own language only, for every reason', async () => {
    const { docNumber } = await registeredLetter(h, org);
    const archived = minimalPdf(`archived ${n}`);
    drop('first.pdf', archived);
    await settle(station());
    const reasons: [string, Buffer | string, string, RegExp, RegExp][] = [
      ['text.pdf', 'plain text', 'notPdf', /ليس PDF/, /is not a PDF/],
      ['broken.pdf', minimalPdf('cut').subarray(0, 120), 'damaged', /تالف أو ناقص/, /damaged or incomplete/],
      [
        'locked.pdf',
        encryptedPdf(),
        'encrypted',
        /محميّ بكلمة مرور.*اطبعه إلى ملف PDF جديد/,
        /protected by a password.*print it to a new PDF/,
      ],
      [
        'script.pdf',
        pdfWith({ catalog: '/OpenAction 5 0 R', objects: ['<< /S /JavaScript /JS (app.alert(1)) >>'] }),
        'activeContent',
        /محتوى نشط/,
        /active content/,
      ],
      ['huge.pdf', largePdf(4), 'tooLarge', /الحد الأقصى 3 MB/, /3 MB at most/],
      ['again.pdf', archived, 'duplicate', /موجود في الأرشيف من قبل/, /already in the archive/],
      [
        'IN-1999-000001.pdf',
        minimalPdf(`nowhere ${n}`),
        'noSuchNumber',
        /IN-1999-000001 ولا توجد معاملة/,
        /starts with IN-1999-000001, but no document/,
      ],
    ];
    for (const [name, bytes] of reasons) drop(name, bytes);
    // The other station (its own queue) does not know first.pdf: the server says it is archived.
    drop(`${docNumber} again.pdf`, archived);
    queue.close();
    queue = StationQueue.open(join(root, `reasons-${n}.sqlite`));
    await settle(station());
    const halves = (name: string) => {
      const [arabic, english, at] = readFileSync(join(folder, 'rejected', `${name}.txt`), 'utf8').split(
        '\n\n',
      );
      return { arabic: arabic!, english: english!, at: at! };
    };
    for (const [name, , code, arabicWords, englishWords] of reasons) {
      const row = queue.recent().find((f) => f.name === name);
      // The same content: named when the server names the document holding it, else said without it.
      if (code === 'duplicate') expect(['duplicate', 'alreadyArchived']).toContain(row?.reason?.code);
      else expect(row?.reason?.code, name).toBe(code);
      const { arabic, english, at } = halves(name);
      expect(arabic, name).toMatch(arabicWords);
      expect(arabic, name).toContain('لم يُستلم هذا الملف في الأرشيف');
      expect(english, name).toMatch(englishWords);
      expect(english, name).toContain('was not taken into the archive');
      // The English half carries no Arabic (the server answered this station in English: none quoted).
      expect(english, name).not.toMatch(/[\u0600-\u06ff]/);
      expect(arabic, name).not.toMatch(/The server said|Please select/);
      expect(new Date(at.trim()).getTime(), name).not.toBeNaN();
    }
    expect(halves(`${docNumber} again.pdf`).english).toContain('already in the archive');
  });

  it("keeps a refusal it has no words for in the server's own words, rendered in each language or quoted only in the language it came in", async () => {
    const answer = (body: IntakeAnswer['body']): StationTransport => ({
      ...transportFor(),
      intakeBatch: async (files) => files.map(() => ({ status: 422, body, lang: 'en' as const })),
    });
    drop('circuit.pdf', minimalPdf(`circuit ${n}`));
    // One of the server's own texts (its code names it): said in each language.
    await settle(
      station(
        answer({ code: 'correspondence.inCircuit', detail: 'The document is in its approval circuit…' }),
      ),
    );
    const both = readFileSync(join(folder, 'rejected', 'circuit.pdf.txt'), 'utf8').split('\n\n');
    expect(both[0]).toMatch(/رفض الخادم الملف \(422\)[\s\S]*رسالة الخادم: المعاملة في مسار الاعتماد/);
    expect(both[1]).toMatch(
      /refused the file \(422\)[\s\S]*The server said: The document is in its approval circuit/,
    );
    // Words the station cannot render in Arabic: quoted in the English half only.
    drop('other.pdf', minimalPdf(`other ${n}`));
    await settle(station(answer({ code: 'something.new', detail: 'A rule added after this station' })));
    const [arabic, english] = readFileSync(join(folder, 'rejected', 'other.pdf.txt'), 'utf8').split('\n\n');
    expect(english).toContain('The server said: A rule added after this station');
    expect(arabic).toContain('رفض الخادم الملف (422)');
    expect(arabic).not.toContain('A rule added');
    expect(arabic).not.toContain('رسالة الخادم');
  });

  it('too large: refused before sending when the limit is known, and by the server (413) when not', async () => {
    drop('huge.pdf', largePdf(4));
    await settle(station());
    expect(list('rejected')).toEqual(['huge.pdf', 'huge.pdf.txt']);
    expect(readFileSync(join(folder, 'rejected', 'huge.pdf.txt'), 'utf8')).toContain('3 MB at most');

    drop('huge2.pdf', largePdf(4));
    const blind = { ...transportFor(), limits: async () => null };
    await settle(station(blind));
    expect(list('rejected')).toContain('huge2.pdf');
    // The server's 413 names its limit: the note says it too.
    expect(queue.recent()[0]!.reason).toMatchObject({ code: 'tooLarge', params: { maxSize: '3 MB' } });
  });

  it('the same file twice: refused by the station that took it, and by the server for another station', async () => {
    const bytes = minimalPdf(`twice ${n}`);
    drop('a.pdf', bytes);
    await settle(station());
    drop('b.pdf', bytes);
    await settle(station());
    expect(list('processed')).toEqual(['a.pdf']);
    expect(list('rejected')).toEqual(['b.pdf', 'b.pdf.txt']);

    // Another station (its own queue) knows nothing of a.pdf: the server says it is archived.
    queue.close();
    queue = StationQueue.open(join(root, `other-${n}.sqlite`));
    drop('c.pdf', bytes);
    await settle(station());
    expect(list('rejected')).toContain('c.pdf');
    expect(readFileSync(join(folder, 'rejected', 'c.pdf.txt'), 'utf8')).toContain('already in the archive');
  });

  it('server down: tries again with back-off, is stuck after a few tries, and goes through on retry', async () => {
    drop('wait.pdf', minimalPdf(`down ${n}`));
    const down = transportFor('http://127.0.0.1:9/'); // nothing listens on the discard port
    const s = station(down);
    await settle(s, 10);
    const [stuck] = queue.problems();
    expect(stuck).toMatchObject({ name: 'wait.pdf', state: 'stuck', attempts: 3 });
    expect(stuck!.reason?.code).toBe('serverDown');
    expect(files()).toEqual(['wait.pdf']); // nothing lost

    const up = station();
    expect(up.retry(stuck!.id)).toBe(true);
    await settle(up);
    expect(list('processed')).toEqual(['wait.pdf']);
  });

  it('an answer lost after the server registered the file, and a restart mid-upload, register it once', async () => {
    const before = await countRows(h, 'documents');
    drop('lost.pdf', minimalPdf(`lost ${n}`));
    const real = transportFor();
    let lose = true;
    const flaky: StationTransport = {
      ...real,
      intakeBatch: async (...args) => {
        const answer = await real.intakeBatch(...args);
        if (lose) {
          lose = false;
          throw new Error('socket hang up'); // the server committed; the station never heard
        }
        return answer;
      },
    };
    await settle(station(flaky));
    expect(list('processed')).toEqual(['lost.pdf']);
    expect(await countRows(h, 'documents')).toBe(before + 1);

    // Killed mid-upload: the row says uploading; a new station over the same queue finishes it once.
    drop('cut.pdf', minimalPdf(`cut ${n}`));
    const first = station();
    await first.tick();
    await new Promise((r) => setTimeout(r, 200));
    await first.tick(); // stable now: taken
    await first.stop();
    const row = queue.active(folder, 'cut.pdf') ?? queue.recent().find((f) => f.name === 'cut.pdf');
    expect(row).toBeTruthy();
    if (row!.state === 'done') {
      // It finished before the stop: force the crash state to test the recovery path anyway.
      expect(list('processed')).toContain('cut.pdf');
    } else {
      const restarted = station();
      restarted.start();
      await settle(restarted);
      await restarted.stop();
    }
    expect(list('processed')).toEqual(['cut.pdf', 'lost.pdf']);
    expect(await countRows(h, 'documents')).toBe(before + 2);
  });

  it('a move that fails keeps the file and its outcome, and finishes on retry', async () => {
    writeFileSync(join(folder, 'processed'), 'a file where the folder should be');
    drop('blocked.pdf', minimalPdf(`blocked ${n}`));
    const before = await countRows(h, 'documents');
    await settle(station(), 10);
    const [stuck] = queue.problems();
    expect(stuck).toMatchObject({ name: 'blocked.pdf', state: 'stuck' });
    expect(stuck!.reason?.code).toBe('moveFailed');
    expect(files()).toContain('blocked.pdf');
    rmSync(join(folder, 'processed'));
    const s = station();
    s.retry(stuck!.id);
    await settle(s);
    expect(list('processed')).toEqual(['blocked.pdf']);
    expect(await countRows(h, 'documents')).toBe(before + 1);
  });

  it('a name starting with a registration number attaches the file to that document', async () => {
    const { id, docNumber } = await registeredLetter(h, org);
    drop(`${docNumber} annex.pdf`, minimalPdf(`annex ${n}`));
    drop('IN-1999-000001.pdf', minimalPdf(`nowhere ${n}`));
    await settle(station());
    expect(list('processed')).toEqual([`${docNumber} annex.pdf`]);
    expect(list('rejected')).toEqual(['IN-1999-000001.pdf', 'IN-1999-000001.pdf.txt']);
    const attachments = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${id}/attachments`,
      token: org.clerk.token,
    });
    expect(attachments.json.data.map((a: { fileName: string }) => a.fileName)).toEqual([
      `${docNumber} annex.pdf`,
    ]);
  });

  it('a backlog goes in batches, each file settled by its own answer', async () => {
    const { docNumber } = await registeredLetter(h, org);
    const archived = minimalPdf(`archived ${n}`);
    drop('first.pdf', archived);
    await settle(station());
    const before = await countRows(h, 'documents');
    // What the server refuses, what it takes, and a file for a numbered document, all in one backlog.
    for (let i = 1; i <= 5; i++) drop(`good ${i}.pdf`, minimalPdf(`good ${i} ${n}`));
    drop('again.pdf', archived); // this station took it already: refused here, not sent
    drop('cut.pdf', minimalPdf('cut').subarray(0, 120)); // a PDF by its signature, broken: the server refuses
    drop(`${docNumber} annex.pdf`, minimalPdf(`annex ${n}`));
    const real = transportFor();
    const requests: number[] = [];
    const counting: StationTransport = {
      ...real,
      intakeBatch: (files, onProgress) => {
        requests.push(files.length);
        return real.intakeBatch(files, onProgress);
      },
    };
    await settle(station(counting, { batchFiles: 4, concurrency: 1 }));
    // 7 files sent (again.pdf, taken with them, never was), at most 4 a request: two requests.
    expect(requests.reduce((a, b) => a + b, 0)).toBe(7);
    expect(requests).toHaveLength(2);
    expect(Math.max(...requests)).toBeLessThanOrEqual(4);
    expect(list('processed')).toEqual(
      [
        `${docNumber} annex.pdf`,
        'first.pdf',
        'good 1.pdf',
        'good 2.pdf',
        'good 3.pdf',
        'good 4.pdf',
        'good 5.pdf',
      ].sort(),
    );
    expect(list('rejected')).toEqual(['again.pdf', 'again.pdf.txt', 'cut.pdf', 'cut.pdf.txt']);
    expect(readFileSync(join(folder, 'rejected', 'cut.pdf.txt'), 'utf8')).toContain('damaged or incomplete');
    expect(queue.recent().find((f) => f.name === 'again.pdf')?.reason?.code).toBe('duplicate');
    expect(await countRows(h, 'documents')).toBe(before + 5);
  });

  it('a processed file whose name another file holds in processed/ gets the next free name', async () => {
    mkdirSync(join(folder, 'processed'));
    writeFileSync(join(folder, 'processed', 'scan.pdf'), 'a file processed before, another scan');
    drop('scan.pdf', minimalPdf(`taken ${n}`));
    await settle(station());
    expect(list('processed')).toEqual(['scan (2).pdf', 'scan.pdf']);
    expect(readFileSync(join(folder, 'processed', 'scan.pdf'), 'utf8')).toBe(
      'a file processed before, another scan',
    );
    expect(queue.recent()[0]).toMatchObject({
      state: 'done',
      movedTo: join(folder, 'processed', 'scan (2).pdf'),
    });
  });

  it('a server without batches (an older one) is sent one file a request, and remembered as such', async () => {
    // In front of the real server: the batch route answers 404 as a server that has none would.
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      seen.push(`${req.method} ${req.url!.split('?')[0]}`);
      if (req.url!.startsWith('/correspondence/intake/batch')) {
        req.resume();
        res.writeHead(404, { 'content-type': 'application/problem+json' });
        return res.end('{"type":"about:blank","title":"Not found","status":404,"detail":"Route not found"}');
      }
      const upstream = httpRequest(`${baseUrl.replace(/\/$/, '')}${req.url}`, {
        method: req.method,
        headers: req.headers,
      });
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const { port } = proxy.address() as AddressInfo;
    try {
      drop('old 1.pdf', minimalPdf(`old 1 ${n}`));
      drop('old 2.pdf', minimalPdf(`old 2 ${n}`));
      const s = station(transportFor(`http://127.0.0.1:${port}/`));
      await settle(s);
      expect(list('processed')).toEqual(['old 1.pdf', 'old 2.pdf']);
      drop('old 3.pdf', minimalPdf(`old 3 ${n}`));
      await settle(s);
      expect(list('processed')).toEqual(['old 1.pdf', 'old 2.pdf', 'old 3.pdf']);
      const posts = seen.filter((r) => r.startsWith('POST'));
      // One batch tried, then every file by the single route, the third without trying a batch again.
      expect(posts).toEqual([
        'POST /correspondence/intake/batch',
        'POST /correspondence/intake',
        'POST /correspondence/intake',
        'POST /correspondence/intake',
      ]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });
});
