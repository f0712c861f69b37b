/**
 * The SQL of search (service.ts): the filters, a ranked page of matches (or, without words, of the newest
 * documents the filters keep, read from the department's indexes when one is asked), the newest indexed
 * document and the first matching attachment page of each hit. Which matches are ranked, and when, is the
 * service's.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { SearchHit, SearchQuery } from '../../../src-shared/api/search';
import { rowsOf } from '../../db/rows';
import { likeEscape } from '../../db/list';
import { normalisedSql, referenceFormSql } from '../../db/schema';
import { day, iso } from '../../db/sql';
import type { Tx } from '../auth/queries';
import type { Db } from '../../db/open';
import { inList } from '../correspondence/visibility';

/** The query's filters, over the documents table as `d`. */
export function filtersOf(query: SearchQuery): SQL[] {
  const where: SQL[] = [];
  if (query.direction) where.push(sql`d.direction = ${query.direction}`);
  if (query.state === 'filed') where.push(sql`d.state in ('registered', 'approved')`);
  else if (query.state) where.push(sql`d.state = ${query.state}`);
  if (query.codificationId) where.push(sql`d.codification_id = ${query.codificationId}`);
  if (query.securityLevelId) where.push(sql`d.security_level_id = ${query.securityLevelId}`);
  if (query.fromDate) where.push(sql`coalesce(d.registered_at, d.created_at) >= ${query.fromDate}::date`);
  if (query.toDate) where.push(sql`coalesce(d.registered_at, d.created_at) < ${query.toDate}::date + 1`);
  if (query.departmentId) {
    const dep = query.departmentId;
    where.push(sql`(${sql.join(
      DEPARTMENT_COLUMNS.map((c) => sql`d.${sql.raw(c)} = ${dep}`),
      sql` or `,
    )}
      or exists (select 1 from distributions fd where fd.document_id = d.id and fd.department_id = ${dep})
      or exists (select 1 from document_recipients fr where fr.document_id = d.id and fr.department_id = ${dep}))`);
  }
  return where;
}

/**
 * The columns of a document that name a department it belongs to, for the department filter; the other
 * two ways are a distribution to it and a memo's recipient row (distributions, document_recipients).
 */
const DEPARTMENT_COLUMNS = [
  'department_id',
  'sender_department_id',
  'recipient_department_id',
  'archive_department_id',
] as const;

/**
 * The documents of department `dep` that `where` keeps (the other filters and the visibility predicate,
 * not the department filter), as candidates of `rankedPage`, the newest `window` of them: the same as
 * newestMatches with filtersOf's department filter, read from the department instead of the whole table.
 * Each of the six ways a document belongs to the department gives its newest `window` from an index by id
 * (migration 0024), and the newest `window` of their union are among those. Fast when the caller may see
 * much of the department (each way stops at its newest `window` the caller may see); the service says when.
 */
export function departmentMatches(dep: number, where: SQL, window: number): SQL {
  const newest = (from: SQL, belongs: SQL, id: SQL) =>
    sql`(select d.id from ${from} where ${belongs} and ${where} order by ${id} desc limit ${window})`;
  const ways = [
    ...DEPARTMENT_COLUMNS.map((c) => newest(sql`documents d`, sql`d.${sql.raw(c)} = ${dep}`, sql`d.id`)),
    newest(
      sql`distributions f join documents d on d.id = f.document_id`,
      sql`f.department_id = ${dep}`,
      sql`f.document_id`,
    ),
    newest(
      sql`document_recipients f join documents d on d.id = f.document_id`,
      sql`f.department_id = ${dep}`,
      sql`f.document_id`,
    ),
  ];
  return sql`select x.id, 0::real as rank, false as nm from (
      select u.id from (${sql.join(ways, sql` union `)}) u order by u.id desc limit ${window}) x`;
}

/** A match of a page, with what its hit shows. */
export interface HitRow {
  id: number;
  number_match: boolean;
  direction: SearchHit['direction'];
  state: SearchHit['state'];
  doc_number: string | null;
  sender_document_number: string | null;
  subject: string;
  sender_id: number | null;
  sender_ar: string | null;
  sender_en: string | null;
  document_date: string | null;
  date: string;
  security_level_id: number | null;
  security_ar: string | null;
  security_en: string | null;
}

/** The documents whose number or sender's reference is the query itself (`exact`), as candidates. */
export function numberMatches(exact: string, where: SQL): SQL {
  return sql`select d.id, 0::real as rank, true as nm from documents d
      where (d.doc_number = ${exact} or ${referenceFormSql(sql.raw('d.sender_document_number'))} = ${exact})
        and ${where}`;
}

/**
 * The rank of a match: ts_rank; when `groups` are given (a search for documents with some of the words),
 * first how many of them the document has, so the documents with most of the words come first.
 */
function rankOf(tsquery: SQL, groups: readonly string[] | undefined): SQL {
  const rank = sql`ts_rank(s.lexemes, ${tsquery})`;
  if (!groups?.length) return rank;
  const count = sql.join(
    groups.map((g) => sql`(s.lexemes @@ to_tsquery('simple', ${g}))::int`),
    sql` + `,
  );
  return sql`(${count} + ${rank})::real`;
}

/** The index's matches of the words (newest first, after document `after`, at most `window`), as candidates. */
export function indexMatches(
  tsq: string,
  where: SQL,
  after: number | null,
  window: number,
  groups?: readonly string[],
): SQL {
  const tsquery = sql`to_tsquery('simple', ${tsq})`;
  return sql`select s.document_id as id, ${rankOf(tsquery, groups)} as rank, false as nm
              from document_search s join documents d on d.id = s.document_id
              where s.lexemes @@ ${tsquery} and ${where}
              ${after === null ? sql`` : sql`and s.document_id > ${after}`}
              order by s.document_id desc limit ${window}`;
}

/**
 * The matches of the words among the documents a caller may see (`visible`, newest first, at most
 * `window`), as candidates. When the words are `few` (a word of them is rare: rareWords), PostgreSQL
 * reads them from the index and picks its plan (a name, a number: 10-25 ms at a million documents).
 * Otherwise each visible document is looked up in the index by its id (a lateral probe), and only the
 * matches are then read from the documents and put to `where`; the fences (`offset 0`) hold that order.
 * Without them PostgreSQL, which takes three common words together to be in 4,800 documents, scanned the
 * index for them and hashed their 27,000 matches (120 ms for a department manager), or checked the
 * visibility of each of the 5,000 visible documents before its probe (30 ms), where the probes alone
 * take 16 ms.
 */
export function visibleMatches(
  tsq: string,
  where: SQL,
  visible: SQL,
  window: number,
  groups: readonly string[] | undefined,
  few: boolean,
): SQL {
  const tsquery = sql`to_tsquery('simple', ${tsq})`;
  const fence = few ? sql`` : sql`offset 0`;
  return sql`select m.id, m.rank, false as nm
              from (select v.id, x.rank
                      from (select c.id from (${visible}) c (id) order by c.id desc) v
                      cross join lateral (select ${rankOf(tsquery, groups)} as rank from document_search s
                                          where s.document_id = v.id and s.lexemes @@ ${tsquery} ${fence}) x
                      order by v.id desc ${fence}) m
              join documents d on d.id = m.id
              where ${where}
              order by m.id desc limit ${window}`;
}

/**
 * The documents of `where` without words, as candidates of `rankedPage` (rank 0, no number match, so they
 * come newest first as ties of a search do), the newest `window` of them: read from `visible`, what a
 * caller who sees little may see (as visibleMatches), or else from the documents by id, newest first.
 */
export function newestMatches(where: SQL, visible: SQL | null, window: number): SQL {
  const newest = visible
    ? sql`select v.id from (${visible}) v (id) join documents d on d.id = v.id
            where ${where} order by v.id desc limit ${window}`
    : sql`select d.id from documents d where ${where} order by d.id desc limit ${window}`;
  return sql`select x.id, 0::real as rank, false as nm from (${newest}) x`;
}

/**
 * A document holds the phrase (normalised) as it is: in its subject, its summary, or a page of its
 * attachments' text. Only the documents the words already matched are looked at.
 */
export function holdsPhrase(phrase: string): SQL {
  const like = `%${likeEscape(phrase)}%`;
  return sql`(d.subject_search like ${like}
    or ${normalisedSql('d.summary')} like ${like}
    or exists (select 1 from document_attachments a join attachment_pages p on p.attachment_id = a.id
                where a.document_id = d.id and ${normalisedSql('p.text')} like ${like}))`;
}

/**
 * One page of the matches among `candidates` (rows of id, rank and nm: whether the number matched), best
 * first, with how many documents matched (`n`) and how many times the words matched (`h`).
 */
export async function rankedPage(
  db: Tx,
  candidates: SQL,
  limit: number,
  offset: number,
  whole: string,
): Promise<{ list: HitRow[]; n: number; h: number }> {
  // The subject holding the query as typed (its exact forms, in order) ranks above a match of stems.
  const exact = whole ? sql`d.subject_search like ${`%${likeEscape(whole)}%`} desc,` : sql``;
  const list = await rowsOf<HitRow & { n: number; h: number }>(
    db,
    sql`with m as (select c.id, max(c.rank) as rank, bool_or(c.nm) as nm, count(*) filter (where not c.nm) as h
                     from (${candidates}) c group by c.id)
          select d.id, m.nm as number_match, d.direction, d.state, d.doc_number, d.sender_document_number,
            d.subject, d.sender_department_id as sender_id, sd.name_ar as sender_ar, sd.name_en as sender_en,
            ${day('d.document_date')} as document_date,
            ${iso('coalesce(d.registered_at, d.created_at)')} as date,
            d.security_level_id, sl.name_ar as security_ar, sl.name_en as security_en,
            (select count(*) from m)::int as n, (select coalesce(sum(h), 0) from m)::int as h
          from m
          join documents d on d.id = m.id
          left join departments sd on sd.id = d.sender_department_id
          left join correspondence_settings sl on sl.id = d.security_level_id
          order by m.nm desc, ${exact} m.rank desc, d.id desc
          limit ${limit} offset ${offset}`,
  );
  // An empty page past the last still says how many there are (the first page empty: none).
  const [counts] = list.length
    ? [list[0]!]
    : offset === 0
      ? [{ n: 0, h: 0 }]
      : await rowsOf<{ n: number; h: number }>(
          db,
          sql`select count(distinct c.id)::int as n, (count(*) filter (where not c.nm))::int as h
              from (${candidates}) c`,
        );
  return { list, n: counts?.n ?? 0, h: counts?.h ?? 0 };
}

/** How many documents of the index tell a common word from a rare one (rareWords): 3 ms to read. */
const COMMON_SAMPLE = 5_000;

/**
 * Of the words (each a tsquery), the rare ones: in none of the first COMMON_SAMPLE documents of the
 * index, by id (the same ones each time: a plain scan of a large table starts wherever another scan of
 * it is, PostgreSQL's synchronised scans). PostgreSQL cannot tell a rare word from a common one it has
 * no figure for, nor from one nobody wrote (it takes each to be in 4,000 of a million documents); this
 * tells them apart for a few milliseconds.
 */
export async function rareWords(db: Tx, words: readonly string[]): Promise<Set<string>> {
  if (!words.length) return new Set();
  const [row] = await rowsOf<{ common: boolean[] }>(
    db,
    sql`select array[${sql.join(
      words.map(
        (w) => sql`exists (select 1 from (select s.lexemes from document_search s
                                             order by s.document_id limit ${COMMON_SAMPLE}) x
                           where x.lexemes @@ to_tsquery('simple', ${w}))`,
      ),
      sql`, `,
    )}] as common`,
  );
  return new Set(words.filter((_, i) => row?.common[i] !== true));
}

/**
 * Which of the words (each a tsquery; `rare` as rareWords says) no document the caller may see has:
 * `visibleHits(tsq, few)` is the matches of one, as candidates (at most one is read). A common word is
 * looked for among the caller's documents at once: any plan finds one soon. A rare one or one nobody
 * wrote is first looked for in the index alone, sequential scans off — asked for one match of a word in
 * none, PostgreSQL read the index table from its start to its end (0.3 s at a million documents,
 * bench/search) — and is absent, without a look at what the caller may see (a department manager's
 * 5,000 documents, 20 ms), when nobody wrote it; then among the caller's, by the index again (its few
 * matches; reading a common word's whole list so would take 30 ms).
 */
export async function absentWords(
  db: Db,
  words: readonly string[],
  rare: ReadonlySet<string>,
  visibleHits: (tsq: string, few: boolean) => SQL,
): Promise<Set<number>> {
  const absent = new Set<number>();
  for (const [i, w] of words.entries()) {
    const seen = !rare.has(w)
      ? await anyOf(db, visibleHits(w, false))
      : await db.transaction(async (tx) => {
          await tx.execute(sql`set local enable_seqscan = off`);
          const [row] = await rowsOf<{ anywhere: boolean }>(
            tx,
            sql`select exists (select 1 from document_search s
                                where s.lexemes @@ to_tsquery('simple', ${w})) as anywhere`,
          );
          return row?.anywhere === true && (await anyOf(tx, visibleHits(w, true)));
        });
    if (!seen) absent.add(i);
  }
  return absent;
}

/** Whether the candidates hold any document. */
async function anyOf(db: Tx, candidates: SQL): Promise<boolean> {
  const [row] = await rowsOf<{ found: boolean }>(db, sql`select exists (${candidates}) as found`);
  return row?.found === true;
}

/** The id of the newest indexed document (0: none). */
export async function newestIndexed(db: Tx): Promise<number> {
  const [row] = await rowsOf<{ m: number | null }>(
    db,
    sql`select max(document_id) as m from document_search`,
  );
  return row?.m ?? 0;
}

/** Of each document, the first attachment page the words match (by attachment, then page). */
export function firstMatchingPages(db: Tx, ids: number[], tsq: string) {
  return rowsOf<{
    document_id: number;
    attachment_id: number;
    file_name: string;
    page: number;
    text: string;
  }>(
    db,
    sql`select distinct on (a.document_id) a.document_id, a.id as attachment_id, a.file_name, p.page, p.text
        from document_attachments a join attachment_pages p on p.attachment_id = a.id
        where a.document_id in ${inList(ids)} and p.lexemes @@ to_tsquery('simple', ${tsq})
        order by a.document_id, a.id, p.page`,
  );
}

/** A suggestion's row. */
export interface SuggestionRow {
  id: number;
  doc_number: string | null;
  subject: string;
  direction: SearchHit['direction'];
}

/**
 * Documents whose number begins with `prefix` (as numberForm writes it), newest number first: compared in
 * the C collation, the beginning and the order are one range of documents_doc_number_c_idx read
 * backwards, which stops at the first SUGGESTIONS_MAX the caller may see, for two characters or twelve.
 */
export function numberPrefixMatches(db: Tx, prefix: string, where: SQL, limit: number) {
  return rowsOf<SuggestionRow>(
    db,
    sql`select d.id, d.doc_number, d.subject, d.direction from documents d
         where d.doc_number collate "C" like ${`${likeEscape(prefix)}%`} and ${where}
         order by d.doc_number collate "C" desc limit ${limit}`,
  );
}

/** The documents among `candidates` (rows of id), with what a suggestion shows, newest first. */
export function suggestionsOf(db: Tx, candidates: SQL, limit: number) {
  return rowsOf<SuggestionRow>(
    db,
    sql`select d.id, d.doc_number, d.subject, d.direction from (${candidates}) c
          join documents d on d.id = c.id order by d.id desc limit ${limit}`,
  );
}
