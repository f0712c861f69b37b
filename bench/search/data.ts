/**
 * The search benchmark's text, on top of the correspondence benchmark's 1,000,000 documents: every
 * document gets a scanned attachment with one page of generated text (Arabic and English words of
 * bench/search/vocabulary.ts drawn with a skew, plus names and reference numbers that are rare), and its
 * search index entry — subject, number, sender and recipient (weights A and B, lexemes made by
 * src-shared/search.ts exactly as the server makes them) and the page's words (D). Set-based SQL; the
 * lexemes of each distinct word, subject and department are computed here once and joined in.
 */
import type pg from 'pg';
import { LEXICON_VERSION, indexText } from '../../src-shared/search';
import { vocabulary } from './vocabulary';

/** Words per generated page. */
export const PAGE_WORDS = 40;
const FIRST_NAMES = ['محمد', 'أحمد', 'عبدالله', 'فاطمة', 'نورة', 'خالد', 'سارة', 'عمر', 'ليلى', 'يوسف'];
const LAST_NAMES = ['العتيبي', 'الحربي', 'القحطاني', 'الشهري', 'الزهراني', 'الغامدي', 'الدوسري', 'المطيري'];

/** Bulk-loads a table of (i, word, lexemes) from words (or names of several words). */
async function wordTable(db: pg.Client, name: string, words: string[]) {
  await db.query(`create temp table ${name} (i int primary key, word text not null, lex text not null)`);
  for (let start = 0; start < words.length; start += 2000) {
    const chunk = words.slice(start, start + 2000);
    await db.query(
      `insert into ${name} (i, word, lex) select * from unnest($1::int[], $2::text[], $3::text[])`,
      [chunk.map((_, k) => start + k + 1), chunk, chunk.map((w) => indexText(w))],
    );
  }
  await db.query(`analyze ${name}`);
}

/** Adds attachments, their page texts and the search index to the generated documents. */
export async function fillSearchData(db: pg.Client): Promise<{ words: string[] }> {
  await db.query(`set session_replication_role = replica`);
  await db.query(`set maintenance_work_mem = '1GB'`);
  await db.query(`set work_mem = '256MB'`);
  const words = vocabulary();
  await wordTable(db, 'bench_vocab', words);
  // Rare words: people's names (a first and a last name) and reference numbers.
  const names = FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f} ${l}`));
  await wordTable(db, 'bench_names', names);
  // The lexemes of each distinct subject and of each department's names, as the indexer makes them.
  const subjects = (await db.query<{ subject: string }>('select distinct subject from documents')).rows;
  await db.query('create temp table bench_subjects (subject text primary key, lex text not null)');
  await db.query('insert into bench_subjects select * from unnest($1::text[], $2::text[])', [
    subjects.map((s) => s.subject),
    subjects.map((s) => indexText(s.subject)),
  ]);
  const departments = (
    await db.query<{ id: number; name: string }>(
      `select id, name_ar || ' ' || name_en as name from departments`,
    )
  ).rows;
  await db.query('create temp table bench_departments (id int primary key, lex text not null)');
  await db.query('insert into bench_departments select * from unnest($1::int[], $2::text[])', [
    departments.map((d) => d.id),
    departments.map((d) => indexText(d.name)),
  ]);

  await db.query('truncate attachment_pages, document_search');
  await db.query(`delete from document_attachments`);
  await db.query(`drop index if exists document_search_lexemes_idx`);
  process.stderr.write('search data: attachments…\n');
  await db.query(`insert into document_attachments (document_id, sha256, file_name, size, mime, text_status,
      text_pages, text_pages_done)
    select id, md5(id::text) || md5((id + 7)::text), 'scan-' || id || '.pdf', 120000, 'application/pdf', 'done', 1, 1
    from documents`);
  process.stderr.write('search data: page texts…\n');
  const n = words.length;
  // Each page: PAGE_WORDS words drawn with a skew (the cube of a uniform draw favours the first words),
  // every fifth page a person's name, every page a reference number of its own.
  await db.query(`insert into attachment_pages (attachment_id, page, method, text, lexemes, lexicon)
    select a.id, 1, 'ocr', t.text || coalesce(' ' || nm.word, '') || ' ' || ref.num,
      strip(to_tsvector('simple', t.lex || coalesce(' ' || nm.lex, '') || ' ' || ref.num)), ${LEXICON_VERSION}
    from document_attachments a
    cross join lateral (
      select string_agg(v.word, ' ' order by g.k) as text, string_agg(v.lex, ' ' order by g.k) as lex
      from (select k, 1 + floor(pow(random(), 3) * ${n})::int + (a.id * 0) as i
              from generate_series(1, ${PAGE_WORDS}) k) g
      join bench_vocab v on v.i = g.i
    ) t
    left join bench_names nm on a.id % 5 = 0 and nm.i = 1 + (a.id / 5) % ${names.length}
    cross join lateral (select (100000 + (a.id::bigint * 7919) % 900000)::text as num) ref`);
  process.stderr.write('search data: index…\n');
  await db.query(`insert into document_search (document_id, lexemes, lexicon)
    select d.id,
      setweight(to_tsvector('simple', coalesce(s.lex, '') || ' '
        || coalesce(regexp_replace(lower(d.doc_number), '[^a-z0-9]+', ' ', 'g'), '')), 'A')
      || setweight(to_tsvector('simple', coalesce(sd.lex, '') || ' ' || coalesce(rd.lex, '')), 'B')
      || coalesce(p.lexemes, ''::tsvector), ${LEXICON_VERSION}
    from documents d
    left join bench_subjects s on s.subject = d.subject
    left join bench_departments sd on sd.id = d.sender_department_id
    left join bench_departments rd on rd.id = d.recipient_department_id
    left join document_attachments a on a.document_id = d.id
    left join attachment_pages p on p.attachment_id = a.id and p.page = 1`);
  await db.query(`create index document_search_lexemes_idx on document_search using gin (lexemes)`);
  await db.query(`set session_replication_role = origin`);
  await db.query('delete from background_jobs');
  await db.query('vacuum analyze document_attachments, attachment_pages, document_search');
  return { words };
}
