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
import { scopeOf, visibleTo, inList } from '../correspondence/visibility';
import { rows, iso, day } from '../correspondence/queries';
import { documentTexts } from './indexer';
import { referenceFormSql } from '../../db/schema';

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
  // Candidates: the index's matches and the documents whose number or reference is the query itself.
  const candidates = sql.join(
    [
      ...(tsq
        ? [
            sql`select s.document_id as id, ts_rank(s.lexemes, to_tsquery('simple', ${tsq})) as rank, false as nm
                from document_search s where s.lexemes @@ to_tsquery('simple', ${tsq})`,
          ]
        : []),
      sql`select d.id, 1 as rank, true as nm from documents d where d.doc_number = ${exact}
          or ${referenceFormSql(sql.raw('d.sender_document_number'))} = ${exact}`,
    ],
    sql` union all `,
  );
  const where = sql.join([visibleTo(scope), ...filtersOf(query)], sql` and `);
  const matched = sql`select m.id, max(m.rank) as rank, bool_or(m.nm) as nm from (${candidates}) m group by m.id`;
  const limit = Math.min(query.pageSize, SEARCH_MAX_RESULTS - offset);

  const [pageRows, countRows] = await Promise.all([
    rows<HitRow>(
      ctx.db,
      sql`select d.id, m.nm as number_match, d.direction, d.state, d.doc_number, d.sender_document_number,
            d.subject, d.sender_department_id as sender_id, sd.name_ar as sender_ar, sd.name_en as sender_en,
            ${day('d.document_date')} as document_date,
            ${iso('coalesce(d.registered_at, d.created_at)')} as date,
            d.security_level_id, sl.name_ar as security_ar, sl.name_en as security_en
          from (${matched}) m
          join documents d on d.id = m.id
          left join departments sd on sd.id = d.sender_department_id
          left join correspondence_settings sl on sl.id = d.security_level_id
          where ${where}
          order by m.nm desc, m.rank desc, d.id desc
          limit ${limit} offset ${offset}`,
    ),
    rows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from (select 1 from (${matched}) m join documents d on d.id = m.id
          where ${where} limit ${SEARCH_MAX_RESULTS + 1}) c`,
    ),
  ]);
  const counted = Number(countRows[0]?.n ?? 0);
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
  id === null ? null : { id: Number(id), nameAr: ar ?? '', nameEn: en ?? '' };

/** The hits of a page with their passages. */
async function hitsOf(
  ctx: ServerContext,
  list: HitRow[],
  terms: QueryTerms,
  tsq: string | null,
): Promise<SearchHit[]> {
  if (!list.length) return [];
  const ids = list.map((r) => Number(r.id));
  const [texts, pages] = await Promise.all([
    documentTexts(ctx.db, ids),
    tsq
      ? rows<{ document_id: number; attachment_id: number; file_name: string; page: number; text: string }>(
          ctx.db,
          sql`select distinct on (a.document_id) a.document_id, a.id as attachment_id, a.file_name, p.page, p.text
              from document_attachments a join attachment_pages p on p.attachment_id = a.id
              where a.document_id in ${inList(ids)} and p.lexemes @@ to_tsquery('simple', ${tsq})
              order by a.document_id, a.id, p.page`,
        )
      : Promise.resolve([]),
  ]);
  const pageOf = new Map(pages.map((p) => [Number(p.document_id), p]));
  return list.map((r) => {
    const t = texts.get(Number(r.id));
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
    const page = pageOf.get(Number(r.id));
    if (page) {
      snippets.push({
        field: 'attachment',
        ...snippet(page.text, terms),
        attachment: { id: Number(page.attachment_id), fileName: page.file_name, page: Number(page.page) },
      });
    }
    return {
      documentId: Number(r.id),
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
