/**
 * GET /search: one query across every document the caller may see. The query becomes lexemes as the
 * index was made (src-shared/search.ts); the index (document_search, GIN) finds the candidates, the
 * documents table filters them and applies the one visibility predicate, ts_rank orders them (weights:
 * number, reference and subject first; attachment text last), and a document whose number or sender's
 * reference is the query itself comes before all. The page's passages are cut from the fields and the
 * first matching attachment page, with the matched words marked.
 */
import { sql, type SQL } from 'drizzle-orm';
import type {
  SearchHit,
  SearchPage,
  SearchQuery,
  SearchSnippet,
  SnippetField,
} from '../../../src-shared/api/search';
import { SEARCH_MAX_RESULTS } from '../../../src-shared/api/search';
import { matchRanges, queryTerms, snippet, tsQueryText, type QueryTerms } from '../../../src-shared/search';
import { ARABIC_UNIFY } from '../../../src-shared/arabic';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { inList, scopeOf, seesBroadly, visibleCandidates, visibleTo } from '../correspondence/visibility';
import { rowsOf } from '../../db/rows';
import { day, iso } from '../../db/sql';
import { documentTexts } from './indexer';
import { referenceFormSql } from '../../db/schema';

/** How many of the newest matches are ranked (see `search`): as many as a query may page through. */
export const RANK_WINDOW = SEARCH_MAX_RESULTS;
/** The newest documents a broad search looks among first. */
export const RECENT_SPAN = 100_000;

/** The query as a number or reference would be written: trimmed, digits in ASCII, letters in capitals. */
export function numberForm(q: string): string {
  return [...q.trim()]
    .map((c) => (/[\u0660-\u0669\u06F0-\u06F9]/.test(c) ? ARABIC_UNIFY[c]! : c))
    .join('')
    .toUpperCase();
}

function filtersOf(query: SearchQuery): SQL[] {
  const where: SQL[] = [];
  if (query.direction) where.push(sql`d.direction = ${query.direction}`);
  if (query.state) where.push(sql`d.state = ${query.state}`);
  if (query.codificationId) where.push(sql`d.codification_id = ${query.codificationId}`);
  if (query.securityLevelId) where.push(sql`d.security_level_id = ${query.securityLevelId}`);
  if (query.fromDate) where.push(sql`coalesce(d.registered_at, d.created_at) >= ${query.fromDate}::date`);
  if (query.toDate) where.push(sql`coalesce(d.registered_at, d.created_at) < ${query.toDate}::date + 1`);
  if (query.departmentId) {
    const dep = query.departmentId;
    where.push(sql`(d.department_id = ${dep} or d.sender_department_id = ${dep}
      or d.recipient_department_id = ${dep} or d.archive_department_id = ${dep}
      or exists (select 1 from distributions fd where fd.document_id = d.id and fd.department_id = ${dep})
      or exists (select 1 from document_recipients fr where fr.document_id = d.id and fr.department_id = ${dep}))`);
  }
  return where;
}

interface HitRow {
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

/** GET /search. */
export async function search(
  ctx: ServerContext,
  caller: AuthContext,
  query: SearchQuery,
): Promise<SearchPage> {
  const terms = queryTerms(query.q);
  const exact = numberForm(query.q);
  const scope = await scopeOf(ctx.db, caller);
  const offset = (query.page - 1) * query.pageSize;
  const empty = { items: [], total: 0, page: query.page, pageSize: query.pageSize, totalExact: true, terms };
  if (!terms.length && !exact) return empty;
  if (offset >= SEARCH_MAX_RESULTS) return { ...empty, totalExact: false };

  const tsq = terms.length ? tsQueryText(terms) : null;
  const where = sql.join([visibleTo(scope), ...filtersOf(query)], sql` and `);
  // The matches, newest first, up to RANK_WINDOW: a common word is in a third of a million documents, and
  // ranking them all would take seconds; the most recent matches are ranked instead (an older one is
  // reached by narrowing: a date range, a filter, another word). A caller who sees little starts from
  // what they may see; one who sees much (an archive clerk) from the index, first among the newest
  // RECENT_SPAN documents and, when they hold too few matches, among all.
  const broad = seesBroadly(scope);
  // The documents whose number or sender's reference is the query itself come first.
  const numbers = sql`select d.id, 0::real as rank, true as nm from documents d
      where (d.doc_number = ${exact} or ${referenceFormSql(sql.raw('d.sender_document_number'))} = ${exact})
        and ${where}`;
  const limit = Math.min(query.pageSize, SEARCH_MAX_RESULTS - offset);

  const page = async (after: number | null) => {
    const q = sql`to_tsquery('simple', ${tsq})`;
    // Broad: the index, newest first. Narrow: what the caller may see, newest first, each looked up in the
    // index (a lateral probe: the planner never trades it for a scan of the whole index).
    const hits = !tsq
      ? null
      : broad
        ? sql`select s.document_id as id, ts_rank(s.lexemes, ${q}) as rank, false as nm
              from document_search s join documents d on d.id = s.document_id
              where s.lexemes @@ ${q} and ${where}
              ${after === null ? sql`` : sql`and s.document_id > ${after}`}
              order by s.document_id desc limit ${RANK_WINDOW}`
        : sql`select v.id, x.rank, false as nm
              from (select c.id from (${visibleCandidates(scope)}) c (id) order by c.id desc) v
              cross join lateral (select ts_rank(s.lexemes, ${q}) as rank from document_search s
                                  where s.document_id = v.id and s.lexemes @@ ${q}) x
              join documents d on d.id = v.id
              where ${where}
              order by v.id desc limit ${RANK_WINDOW}`;
    const candidates = hits ? sql`(${hits}) union all (${numbers})` : numbers;
    const list = await rowsOf<HitRow & { n: number; h: number }>(
      ctx.db,
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
          order by m.nm desc, m.rank desc, d.id desc
          limit ${limit} offset ${offset}`,
    );
    const [counts] = list.length
      ? [list[0]!]
      : await rowsOf<{ n: number; h: number }>(
          ctx.db,
          sql`select count(distinct c.id)::int as n, (count(*) filter (where not c.nm))::int as h
              from (${candidates}) c`,
        );
    return { list, n: counts?.n ?? 0, h: counts?.h ?? 0 };
  };
  const newest =
    broad && tsq
      ? ((
          await rowsOf<{ m: number | null }>(ctx.db, sql`select max(document_id) as m from document_search`)
        )[0]?.m ?? 0)
      : 0;
  let found = await page(newest > RECENT_SPAN ? newest - RECENT_SPAN : null);
  if (newest > RECENT_SPAN && found.h < RANK_WINDOW) found = await page(null);
  const pageRows = found.list;
  // A full window means more matches than were ranked: the total is then a lower bound.
  const countRows = [{ n: found.n + (found.h >= RANK_WINDOW ? 1 : 0) }];
  const counted = countRows[0]?.n ?? 0;
  const items = await hitsOf(ctx, pageRows, terms, tsq);
  return {
    items,
    total: Math.min(counted, SEARCH_MAX_RESULTS),
    totalExact: counted <= SEARCH_MAX_RESULTS,
    page: query.page,
    pageSize: query.pageSize,
    terms,
  };
}

const ref = (id: number | null, ar: string | null, en: string | null) =>
  id === null ? null : { id, nameAr: ar ?? '', nameEn: en ?? '' };

/** The hits of a page with their passages. */
async function hitsOf(
  ctx: ServerContext,
  list: HitRow[],
  terms: QueryTerms,
  tsq: string | null,
): Promise<SearchHit[]> {
  if (!list.length) return [];
  const ids = list.map((r) => r.id);
  const [texts, pages] = await Promise.all([
    documentTexts(ctx.db, ids),
    tsq
      ? rowsOf<{ document_id: number; attachment_id: number; file_name: string; page: number; text: string }>(
          ctx.db,
          sql`select distinct on (a.document_id) a.document_id, a.id as attachment_id, a.file_name, p.page, p.text
              from document_attachments a join attachment_pages p on p.attachment_id = a.id
              where a.document_id in ${inList(ids)} and p.lexemes @@ to_tsquery('simple', ${tsq})
              order by a.document_id, a.id, p.page`,
        )
      : Promise.resolve([]),
  ]);
  const pageOf = new Map(pages.map((p) => [p.document_id, p]));
  return list.map((r) => {
    const t = texts.get(r.id);
    const snippets: SearchSnippet[] = [];
    const fields: [SnippetField, string | null | undefined][] = [
      ['docNumber', t?.docNumber],
      ['senderDocumentNumber', t?.senderDocumentNumber],
      ['subject', t?.subject],
      ['summary', t?.summary],
      ['sender', t?.sender],
      ['receivers', t?.receivers],
      ['notes', t?.notes],
    ];
    for (const [field, value] of fields) {
      if (!value || !matchRanges(value, terms).length) continue;
      snippets.push({ field, ...snippet(value, terms), attachment: null });
    }
    const page = pageOf.get(r.id);
    if (page) {
      snippets.push({
        field: 'attachment',
        ...snippet(page.text, terms),
        attachment: { id: page.attachment_id, fileName: page.file_name, page: page.page },
      });
    }
    return {
      documentId: r.id,
      direction: r.direction,
      state: r.state,
      docNumber: r.doc_number,
      senderDocumentNumber: r.sender_document_number,
      subject: r.subject,
      sender: ref(r.sender_id, r.sender_ar, r.sender_en),
      documentDate: r.document_date,
      date: r.date,
      securityLevel: ref(r.security_level_id, r.security_ar, r.security_en),
      numberMatch: !!r.number_match,
      snippets,
    };
  });
}
