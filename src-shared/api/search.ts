/**
 * GET /search: one query across every document the caller may see (the visibility predicate), over the
 * number, sender's reference, subject, summary, sender, receivers, notes of distributions and tasks and
 * the text of attachments. Words are matched as src-shared/search.ts makes them (normalised, stemmed).
 * Without words, the filters alone list the documents the caller may see, newest first ("the list behind
 * a figure" of a dashboard, every incoming letter of a department this month).
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { DIRECTIONS, DOCUMENT_STATES, namedRefSchema } from './correspondence';
import { endpoint } from './endpoint';
import { dateOnlyField, decimalParam, idField, text } from './fields';

/** Results of one query are paged up to this many (the total shown beyond it is "more than …"). */
export const SEARCH_MAX_RESULTS = 1000;
export const SEARCH_PAGE_SIZE = 20;

/**
 * The states search filters on: a document's own, or `filed` — the numbered records (registered incoming,
 * approved outgoing and memos), what the dashboards count as volumes.
 */
export const SEARCH_STATES = [...DOCUMENT_STATES, 'filed'] as const;
export type SearchState = (typeof SEARCH_STATES)[number];

export const searchQuerySchema = z
  .object({
    /** The words; none (absent, empty or blank): the filters alone, and with no filter nothing. */
    q: text(0, 200).optional(),
    page: decimalParam(1, SEARCH_MAX_RESULTS).default(1),
    pageSize: decimalParam(1, 50).default(SEARCH_PAGE_SIZE),
    direction: z.enum(DIRECTIONS).optional(),
    state: z.enum(SEARCH_STATES).optional(),
    fromDate: dateOnlyField.optional(),
    toDate: dateOnlyField.optional(),
    codificationId: idField.optional(),
    departmentId: idField.optional(),
    securityLevelId: idField.optional(),
  })
  .strict();
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Where a passage of a result comes from. */
export const SNIPPET_FIELDS = [
  'docNumber',
  'senderDocumentNumber',
  'subject',
  'summary',
  'sender',
  'receivers',
  'notes',
  'attachment',
] as const;
export type SnippetField = (typeof SNIPPET_FIELDS)[number];

/** A passage with the matched words as [start, end) offsets into `text` (UTF-16, as written). */
export const snippetSchema = z.object({
  field: z.enum(SNIPPET_FIELDS),
  text: z.string(),
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** Text was cut before / after the passage. */
  before: z.boolean(),
  after: z.boolean(),
  /** For `attachment`: which file and page. */
  attachment: z.object({ id: z.number().int(), fileName: z.string(), page: z.number().int() }).nullable(),
});
export type SearchSnippet = z.infer<typeof snippetSchema>;

export const searchHitSchema = z.object({
  documentId: z.number().int(),
  direction: z.enum(DIRECTIONS),
  state: z.enum(DOCUMENT_STATES),
  docNumber: z.string().nullable(),
  senderDocumentNumber: z.string().nullable(),
  subject: z.string(),
  sender: namedRefSchema.nullable(),
  documentDate: z.string().nullable(),
  /** Registered (filed) or, before that, created. */
  date: z.string(),
  securityLevel: namedRefSchema.nullable(),
  /** The query is this document's number or sender's reference (these come first). */
  numberMatch: z.boolean(),
  snippets: z.array(snippetSchema),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchPageSchema = z.object({
  items: z.array(searchHitSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** false: `total` is a lower bound ("more than {total}"). */
  totalExact: z.boolean(),
  /** The query's words as searched (after dropping the very common ones); empty when none was left or typed. */
  terms: z.array(z.array(z.string())),
  /** Words typed that are too common to search by (في، the), as typed: the page says they were left out. */
  ignored: z.array(z.string()),
  /**
   * No document has every word: `missing` are the words no document has (as typed), left out of the
   * search; `partial`, that the documents shown have most of the words, not all (the best first).
   */
  missing: z.array(z.string()),
  partial: z.boolean(),
});
export type SearchPage = z.infer<typeof searchPageSchema>;

/** GET /search/suggest: what is being typed in the header's search box. */
export const suggestQuerySchema = z.object({ q: text(1, 100) }).strict();
export type SuggestQuery = z.infer<typeof suggestQuerySchema>;

/**
 * What the box must hold, blanks at its ends aside, before suggestions are asked for: shorter, the server
 * has nothing to go on (a number is suggested from two characters, a word's beginning from two letters after
 * an article and three otherwise).
 */
export const SUGGEST_MIN_CHARS = 2;

/** Suggestions a search box shows at most. */
export const SUGGESTIONS_MAX = 8;

/** A document the words typed so far lead to: by the beginning of its number, or of its subject's words. */
export const suggestionSchema = z.object({
  documentId: z.number().int(),
  /** What matched: the number's beginning, or the subject's words. */
  kind: z.enum(['number', 'subject']),
  docNumber: z.string().nullable(),
  subject: z.string(),
  direction: z.enum(DIRECTIONS),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

export const searchEndpoints = {
  search: endpoint({
    method: 'GET',
    path: '/search',
    query: searchQuerySchema,
    response: searchPageSchema,
    // The search page's own permission; the results are only the documents the caller may see.
    access: { page: PAGES.search, permission: 'view' },
    tags: ['search'],
    summary:
      'Search every document the caller may see: number, references, subject, summary, sender, ' +
      'receivers, notes and attachment text (Arabic normalised and stemmed; English stemmed); without ' +
      'words, the documents matching the filters, newest first (no words and no filter: none)',
  }),
  suggest: endpoint({
    method: 'GET',
    path: '/search/suggest',
    query: suggestQuerySchema,
    response: z.array(suggestionSchema).max(SUGGESTIONS_MAX),
    access: { page: PAGES.search, permission: 'view' },
    tags: ['search'],
    summary:
      'Suggestions as a query is typed: documents the caller may see whose number begins with it, or ' +
      'whose subject has its words, the last one only begun (newest first)',
  }),
};
