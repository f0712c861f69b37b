/**
 * Disposing of a large file (issue 31; src-server/modules/records, docs/records.md): BENCH_DISPOSITION_DOCS
 * (10,000) registered documents, each with an attachment of its own (a small PDF stored under its SHA-256 in
 * the local store), in one closed file past a 0-year destroy schedule; then a proposal, a second records
 * manager's approval and the destruction (POST …/execute), through the API of an app over the API tests'
 * harness (PGlite by default; SIJILL_TEST_DATABASE_URL: PostgreSQL).
 *
 * One document is registered through the API with its upload; the others are copies of its rows made in
 * bulk with SQL (numbers and files their own), since registering 10,000 letters one by one would measure
 * registration. Printed: seeding time, each step's time, documents and files a second of the destruction,
 * what is left on disk and in the tables (nothing of the file's documents), the certificate's size.
 *
 *   npx tsx bench/disposition/run.ts            (BENCH_DISPOSITION_DOCS=2000 for a shorter run)
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MovableClock } from '../../src-server/clock';
import { PAGES } from '../../src-shared/pages';
import { minimalPdf, multipart } from '../../tests/api/support/files';
import { call, makeRole, startHarness, type Harness } from '../../tests/api/support/harness';
import { actor, letter, organisation, type Actor } from '../../tests/api/support/correspondence';
import { round } from '../station/support';

const DOCS = Number(process.env.BENCH_DISPOSITION_DOCS ?? 10_000);
const CHUNK = 2_000;

function must<T>(res: { status: number; json: { data?: T } }, what: string, status = 200): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data as T;
}

const seconds = (from: number) => (performance.now() - from) / 1000;

async function main() {
  const clock = new MovableClock('2026-03-01T09:00:00Z');
  const h: Harness = await startHarness({}, { clock });
  try {
    const org = await organisation(h);
    const role = await makeRole(h, {
      [PAGES.recordFiles]: ['view', 'add', 'edit'],
      [PAGES.disposition]: ['view', 'add', 'approve', 'edit'],
    } as unknown as Record<string, ('view' | 'add')[]>);
    const rm1: Actor = await actor(h, role, null);
    const rm2: Actor = await actor(h, role, null);
    const req = (who: Actor, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
      call(h, { method, url, token: who.token, ...(body !== undefined ? { body } : {}) });

    must(
      await req(org.admin, 'PUT', `/records/schedules/${org.codIn}`, {
        years: 0,
        action: 'destroy',
        legalReference: 'Bench schedule',
      }),
      'schedule',
    );
    const file = must<{ id: number }>(
      await req(rm1, 'POST', '/records/files', {
        code: 'BENCH-01',
        titleAr: 'ملف القياس',
        titleEn: 'Bench file',
        openedOn: '2026-01-01',
      }),
      'file',
      201,
    );
    const template = must<{ id: number }>(
      await req(org.clerk, 'POST', '/correspondence/documents', {
        ...letter(org, { fileId: file.id, subject: 'Bench letter' }),
        register: true,
      }),
      'register',
      201,
    );
    const body = multipart(minimalPdf('bench template'), 'letter.pdf', 'application/pdf');
    const up = await h.app.inject({
      method: 'POST',
      url: `/correspondence/documents/${template.id}/attachments`,
      headers: { ...body.headers, authorization: `Bearer ${org.clerk.token}` },
      payload: body.payload,
    });
    if (up.statusCode !== 201) throw new Error(`upload: ${up.statusCode} ${up.body}`);

    // The copies: every column of the template's row but its identity, generated column, number and
    // sequence; each with an attachment row naming a file of its own, written into the store.
    process.stderr.write(`seeding ${DOCS} documents with an attachment each…\n`);
    const seeding = performance.now();
    const columns = (
      await h.query<{ name: string }>(
        `select column_name as name from information_schema.columns
          where table_schema = 'public' and table_name = 'documents' and is_generated = 'NEVER'
            and identity_generation is null
            and column_name not in ('doc_number', 'sequence')
          order by ordinal_position`,
      )
    ).map((c) => `"${c.name}"`);
    const paths: string[] = [];
    for (let start = 1; start < DOCS; start += CHUNK) {
      const count = Math.min(CHUNK, DOCS - start);
      const ids = await h.query<{ id: number }>(
        `insert into documents (${columns.join(', ')}, doc_number, sequence)
         select ${columns.map((c) => `d.${c}`).join(', ')}, 'BENCH-' || g, 1000000 + g
           from documents d, generate_series(${start}, ${start + count - 1}) g
          where d.id = ${template.id}
          returning id`,
      );
      const hashes: string[] = [];
      for (const _ of ids) {
        const bytes = minimalPdf(`bench ${randomBytes(8).toString('hex')}`);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const folder = join(h.filesDir, sha256.slice(0, 2), sha256.slice(2, 4));
        await mkdir(folder, { recursive: true });
        await writeFile(join(folder, sha256), bytes);
        paths.push(join(folder, sha256));
        hashes.push(`('${sha256}', ${bytes.length})`);
      }
      await h.query(
        `insert into document_attachments (document_id, sha256, file_name, size, mime, text_status)
         select i.id, f.sha256, 'letter.pdf', f.size, 'application/pdf', 'done'
           from (select id, row_number() over (order by id) as n from unnest(array[${ids
             .map((r) => r.id)
             .join(',')}]) as id) i
           join (select sha256, size, row_number() over () as n from (values ${hashes.join(', ')}) as v(sha256, size)) f
             on f.n = i.n`,
      );
    }
    const seedSeconds = seconds(seeding);

    must(await req(rm1, 'POST', `/records/files/${file.id}/close`, { closedOn: '2026-02-01' }), 'close');
    let at = performance.now();
    const proposed = must<{ id: number }>(
      await req(rm1, 'POST', '/records/dispositions', { fileId: file.id }),
      'propose',
      201,
    );
    const proposeSeconds = seconds(at);
    at = performance.now();
    must(await req(rm2, 'POST', `/records/dispositions/${proposed.id}/approve`), 'approve');
    const approveSeconds = seconds(at);
    at = performance.now();
    must(await req(rm1, 'POST', `/records/dispositions/${proposed.id}/execute`), 'execute');
    const executeSeconds = seconds(at);

    const [left] = await h.query<{ documents: number; attachments: number }>(
      `select (select count(*)::int from documents where file_id = ${file.id}) as documents,
              (select count(*)::int from document_attachments a join documents d on d.id = a.document_id
                where d.file_id = ${file.id}) as attachments`,
    );
    const onDisk = paths.filter((p) => existsSync(p)).length;
    const certificate = await h.app.inject({
      method: 'GET',
      url: `/records/dispositions/${proposed.id}/certificate`,
      headers: { authorization: `Bearer ${rm1.token}` },
    });
    console.log(
      JSON.stringify(
        {
          benchmark: 'disposition',
          database: h.database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
          documents: DOCS,
          seedSeconds: round(seedSeconds, 1),
          proposeSeconds: round(proposeSeconds, 2),
          approveSeconds: round(approveSeconds, 2),
          destroySeconds: round(executeSeconds, 1),
          documentsPerSecond: Math.round(DOCS / executeSeconds),
          left: { ...left, filesOnDisk: onDisk },
          certificate: { status: certificate.statusCode, bytes: certificate.rawPayload.length },
        },
        null,
        2,
      ),
    );
  } finally {
    await h.close();
  }
}

await main();
process.exit(0);
