/**
 * GET /search: one query across every document the caller may see. The query becomes lexemes as the
 * index was made (src-shared/search.ts); the index (document_search, GIN) finds the candidates, the
 * documents table filters them and applies the one visibility predicate, ts_rank orders them (weights:
 * number, reference and subject first; attachment text last), and a document whose number or sender's
 * reference is the query itself comes before all. When no document has every word, the words no
 * document has are left out and named (`missing`), and if that is not enough the documents with most of
 * the words are shown (`partial`), as search engines do. The page's passages are cut from the fields and
 * the first matching attachment page, with the matched words marked. Without words, the filters alone
 * list the documents the caller may see, newest first (`filtered`).
 */
import { sql, type SQL } from 'drizzle-orm';
import type {
  SearchHit,
  SearchPage,
  SearchQuery,
  SearchSnippet,
  SnippetField,
} from '../../../src-shared/api/search';
import {
  SEARCH_MAX_RESULTS,
  SUGGEST_MIN_CHARS,
  SUGGESTIONS_MAX,
  type Suggestion,
  type SuggestQuery,
} from '../../../src-shared/api/search';
import {
  anyTermQueryText,
  ignoredWords,
  queryParts,
  prefixQueryText,
  queryPhrases,
  snippet,
  snippetOfMatches,
  tsQueryText,
  type QueryTerms,
  wholePhrase,
} from '../../../src-shared/search';
import { ARABIC_UNIFY } from '../../../src-shared/arabic';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import {
  receivingDepartments,
  scopeOf,
  seesBroadly,
  visibleCandidates,
  visibleTo,
  type Scope,
} from '../correspondence/visibility';
import { documentTexts } from './indexer';
import * as q from './queries';

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

/**
 * Where a caller's matches come from: one who sees much (an archive clerk) from the index, one who sees
 * little from what they may see, each looked up in the index (queries.ts); and the newest indexed
 * document, asked once.
 */
function matchesFor(ctx: ServerContext, scope: Scope, where: SQL) {
  const broad = seesBroadly(scope);
  let newest: Promise<number> | undefined;
  return {
    broad,
    /** `few`: the words' matches are few (a word of them is rare), for one who sees little. */
    hits: (tsq: string, after: number | null, window: number, groups?: string[], few = false) =>
      broad
        ? q.indexMatches(tsq, where, after, window, groups)
        : q.visibleMatches(tsq, where, visibleCandidates(scope), window, groups, few),
    newest: () => (newest ??= broad ? q.newestIndexed(ctx.db) : Promise.resolve(0)),
  };
}

/**
 * Reads among the newest RECENT_SPAN indexed documents first (`read(after)`), and among all when they
 * did not give `enough` (a common word is in a third of a million documents); `span` false reads all.
 */
async function newestFirst<T>(
  source: { newest: () => Promise<number> },
  span: boolean,
  read: (after: number | null) => Promise<T>,
  enough: (found: T) => boolean,
): Promise<T> {
  const newest = span ? await source.newest() : 0;
  if (newest <= RECENT_SPAN) return read(null);
  const found = await read(newest - RECENT_SPAN);
  return enough(found) ? found : read(null);
}

/** GET /search. */
export async function search(
  ctx: ServerContext,
  caller: AuthContext,
  query: SearchQuery,
): Promise<SearchPage> {
  const typed = query.q?.trim() ?? '';
  if (!typed) return filtered(ctx, caller, query);
  const parts = queryParts(typed);
  let { terms, runs } = parts;
  const exact = numberForm(typed);
  const scope = await scopeOf(ctx.db, caller);
  const offset = (query.page - 1) * query.pageSize;
  const said = { ignored: ignoredWords(typed), missing: [] as string[], partial: false };
  const empty = { items: [], total: 0, page: query.page, pageSize: query.pageSize, totalExact: true, terms };
  if (!terms.length && !exact) return { ...empty, ...said };
  if (offset >= SEARCH_MAX_RESULTS) return { ...empty, ...said, totalExact: false };

  // A phrase typed between quotation marks must be there as it is, word after word.
  const phrases = queryPhrases(typed).map(q.holdsPhrase);
  const where = sql.join([visibleTo(scope), ...q.filtersOf(query), ...phrases], sql` and `);
  const whole = wholePhrase(typed);
  // The matches, newest first, up to RANK_WINDOW: a common word is in a third of a million documents, and
  // ranking them all would take seconds; the most recent matches are ranked instead (an older one is
  // reached by narrowing: a date range, a filter, another word). A caller who sees little starts from
  // what they may see; one who sees much (an archive clerk) from the index, first among the newest
  // RECENT_SPAN documents and, when they hold too few matches, among all.
  const source = matchesFor(ctx, scope, where);
  const hitsOf = source.hits;
  // The documents whose number or sender's reference is the query itself come first.
  const numbers = q.numberMatches(exact, where);
  const limit = Math.min(query.pageSize, SEARCH_MAX_RESULTS - offset);

  // The rare words (queries.ts rareWords): for one who sees little, the matches of words with a rare one
  // among them are read from the index, not by walking what they may see. (Read for one who sees much
  // only when no document has every word.)
  let rare = source.broad
    ? null
    : await q.rareWords(
        ctx.db,
        terms.map((g) => tsQueryText([g])),
      );
  /** How many of `groups` are rare words. */
  const rareCount = (groups: typeof terms) => groups.filter((g) => rare?.has(tsQueryText([g]))).length;

  /**
   * The page of the matches of `tsq` (and the number's), `groups` ranking by how many words match;
   * `few`: the matches are few.
   */
  const find = (tsq: string | null, groups?: string[], few = false) =>
    newestFirst(
      source,
      tsq !== null,
      (after) => {
        const hits = tsq ? hitsOf(tsq, after, RANK_WINDOW, groups, few) : null;
        const candidates = hits ? sql`(${hits}) union all (${numbers})` : numbers;
        return q.rankedPage(ctx.db, candidates, limit, offset, whole);
      },
      (found) => found.h >= RANK_WINDOW,
    );

  let found = await find(terms.length ? tsQueryText(terms) : null, undefined, rareCount(terms) > 0);
  // No document has every word: the words no document has are left out (and named), and when every
  // word is somewhere but never all together, the documents with most of them are shown, best first.
  if (found.n === 0 && terms.length >= 2) {
    const words = terms.map((group) => tsQueryText([group]));
    rare ??= await q.rareWords(ctx.db, words);
    const absent = await q.absentWords(ctx.db, words, rare, (tsq, few) =>
      hitsOf(tsq, null, 1, undefined, few),
    );
    if (absent.size > 0 && absent.size < terms.length) {
      said.missing = [...new Set(parts.words.filter((_, i) => absent.has(i)))];
      const kept = terms.map((_, i) => i).filter((i) => !absent.has(i));
      terms = kept.map((i) => terms[i]!);
      runs = runs
        .map((run) => run.filter((i) => !absent.has(i)).map((i) => kept.indexOf(i)))
        .filter((run) => run.length >= 2);
      found = await find(tsQueryText(terms), undefined, rareCount(terms) > 0);
    }
    if (found.n === 0 && terms.length >= 2) {
      // Some of the words: few matches only when every word is rare.
      const some = await find(
        anyTermQueryText(terms),
        terms.map((group) => tsQueryText([group])),
        rareCount(terms) === terms.length,
      );
      if (some.n > 0) [found, said.partial] = [some, true];
    }
  }
  const pageRows = found.list;
  // A full window means more matches than were ranked: the total is then a lower bound.
  const counted = found.n + (found.h >= RANK_WINDOW ? 1 : 0);
  // The attachment page shown: one with every word, or, for documents with some of them, any.
  const pageQuery = !terms.length ? null : said.partial ? anyTermQueryText(terms) : tsQueryText(terms);
  const items = await hitsOfPage(ctx, pageRows, terms, runs, pageQuery);
  return {
    items,
    total: Math.min(counted, SEARCH_MAX_RESULTS),
    totalExact: counted <= SEARCH_MAX_RESULTS,
    page: query.page,
    pageSize: query.pageSize,
    terms,
    ...said,
  };
}

/**
 * GET /search without words: the documents the filters keep among those the caller may see (the same
 * predicate and filters as a search), newest first — the order of a search's ties — paged as a search
 * and counted exactly up to SEARCH_MAX_RESULTS; each hit's passage is its subject, nothing marked. A
 * caller who sees little is read from what they may see (visibleCandidates), one who sees much from the
 * documents newest first; a department they see much of, from its indexes (departmentMatches). Neither
 * words nor a filter: nothing (listing everything is the boxes' work).
 */
async function filtered(ctx: ServerContext, caller: AuthContext, query: SearchQuery): Promise<SearchPage> {
  const filters = q.filtersOf(query);
  const offset = (query.page - 1) * query.pageSize;
  const empty = {
    items: [],
    total: 0,
    page: query.page,
    pageSize: query.pageSize,
    totalExact: true,
    terms: [],
    ignored: [],
    missing: [],
    partial: false,
  };
  if (!filters.length) return empty;
  if (offset >= SEARCH_MAX_RESULTS) return { ...empty, totalExact: false };
  const scope = await scopeOf(ctx.db, caller);
  const where = (f: SQL[]) => sql.join([visibleTo(scope), ...f], sql` and `);
  const broad = seesBroadly(scope);
  const dep = query.departmentId;
  // One more than can be paged through tells an exact total from "more than". A department the caller
  // sees much of (any, for one who sees broadly; their own or one they lead) is read from its indexes: one
  // holding 1% of a million documents took 0.3 s read newest first from all. Another department is read
  // from what the caller may see: most of its documents are not theirs, and each way would walk them. With
  // a period (from and to), the period's documents are read by date as before: a month is 20 ms, and each
  // way would walk the department's documents after it (a month two years back of an archive office of
  // 800,000 documents: 0.1-0.2 s).
  const candidates =
    dep && !(query.fromDate && query.toDate) && (broad || receivingDepartments(scope).includes(dep))
      ? q.departmentMatches(
          dep,
          where(q.filtersOf({ ...query, departmentId: undefined })),
          SEARCH_MAX_RESULTS + 1,
        )
      : q.newestMatches(where(filters), broad ? null : visibleCandidates(scope), SEARCH_MAX_RESULTS + 1);
  const limit = Math.min(query.pageSize, SEARCH_MAX_RESULTS - offset);
  // (PostgreSQL prices this read high enough to compile it, 0.6-1.5 s on a loaded server for a read of
  // milliseconds: the pool's connections have JIT off, db/open.ts.)
  const found = await q.rankedPage(ctx.db, candidates, limit, offset, '');
  return {
    ...empty,
    items: await hitsOfPage(ctx, found.list, [], [], null),
    total: Math.min(found.n, SEARCH_MAX_RESULTS),
    totalExact: found.n <= SEARCH_MAX_RESULTS,
  };
}

const ref = (id: number | null, ar: string | null, en: string | null) =>
  id === null ? null : { id, nameAr: ar ?? '', nameEn: en ?? '' };

/** A page's row as its hit, with its passages. */
const hitOf = (r: q.HitRow, snippets: SearchSnippet[]): SearchHit => ({
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
});

/** The hits of a page with their passages (without words: the subject, nothing marked). */
async function hitsOfPage(
  ctx: ServerContext,
  list: q.HitRow[],
  terms: QueryTerms,
  runs: number[][],
  tsq: string | null,
): Promise<SearchHit[]> {
  if (!list.length) return [];
  if (!terms.length)
    return list.map((r) => hitOf(r, [{ field: 'subject', ...snippet(r.subject, []), attachment: null }]));
  const ids = list.map((r) => r.id);
  const [texts, pages] = await Promise.all([
    documentTexts(ctx.db, ids),
    tsq ? q.firstMatchingPages(ctx.db, ids, tsq) : Promise.resolve([]),
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
      const passage = value ? snippetOfMatches(value, terms, undefined, runs) : null;
      if (passage) snippets.push({ field, ...passage, attachment: null });
    }
    const page = pageOf.get(r.id);
    if (page) {
      snippets.push({
        field: 'attachment',
        ...snippet(page.text, terms, undefined, runs),
        attachment: { id: page.attachment_id, fileName: page.file_name, page: page.page },
      });
    }
    return hitOf(r, snippets);
  });
}

/**
 * GET /search/suggest: as the header's box is typed, the documents the caller may see whose number
 * begins with what was typed, then those whose subject (or number, or reference) has its words, the last
 * only begun — newest first, SUGGESTIONS_MAX at most. The same index and visibility as a search, limited
 * to the fields of weight A; the newest RECENT_SPAN documents first, as a search.
 */
export async function suggest(
  ctx: ServerContext,
  caller: AuthContext,
  query: SuggestQuery,
): Promise<Suggestion[]> {
  const scope = await scopeOf(ctx.db, caller);
  const where = visibleTo(scope);
  const number = numberForm(query.q);
  const byNumber =
    /\d/.test(number) && number.length >= SUGGEST_MIN_CHARS
      ? await q.numberPrefixMatches(ctx.db, number, where, SUGGESTIONS_MAX)
      : [];
  const tsq = byNumber.length < SUGGESTIONS_MAX ? prefixQueryText(query.q, 'A') : null;
  let bySubject: q.SuggestionRow[] = [];
  if (tsq) {
    const source = matchesFor(ctx, scope, where);
    bySubject = await newestFirst(
      source,
      true,
      (after) => q.suggestionsOf(ctx.db, source.hits(tsq, after, SUGGESTIONS_MAX), SUGGESTIONS_MAX),
      (rows) => rows.length >= SUGGESTIONS_MAX,
    );
  }
  const seen = new Set<number>();
  const out: Suggestion[] = [];
  for (const [kind, rows] of [
    ['number', byNumber],
    ['subject', bySubject],
  ] as const) {
    for (const r of rows) {
      if (seen.has(r.id) || out.length >= SUGGESTIONS_MAX) continue;
      seen.add(r.id);
      out.push({
        documentId: r.id,
        kind,
        docNumber: r.doc_number,
        subject: r.subject,
        direction: r.direction,
      });
    }
  }
  return out;
}
