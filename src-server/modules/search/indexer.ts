/**
 * The search index of documents (document_search): each document's lexemes (src-shared/search.ts), in
 * four weights — A: number, sender's reference, subject; B: summary, sender, receivers and recipient
 * departments; C: notes of its distributions and tasks; D: the text of its attachments. Rebuilt whole by
 * the background `search.index` job whenever a change touches one of them (database triggers enqueue it:
 * no write path can forget). Attachment text keeps one entry per distinct word without positions, so a
 * 300-page scan stays far below PostgreSQL's 1 MB tsvector limit.
 */
import { sql } from 'drizzle-orm';
import { LEXICON_VERSION, indexText, textLexemes } from '../../../src-shared/search';
import type { Db } from '../../db/open';
import type { Tx } from '../auth/queries';
import { inList } from '../correspondence/visibility';
import { rowsOf } from '../../db/rows';

/** The texts of documents that search reads (and shows passages of), by document. */
export interface DocumentTexts {
  id: number;
  docNumber: string | null;
  senderDocumentNumber: string | null;
  subject: string;
  summary: string | null;
  sender: string | null;
  receivers: string | null;
  notes: string | null;
}

/** Reads the searchable fields of documents (not their attachments). */
export async function documentTexts(db: Tx, ids: readonly number[]): Promise<Map<number, DocumentTexts>> {
  const out = new Map<number, DocumentTexts>();
  if (!ids.length) return out;
  const list = await rowsOf<{
    id: number;
    doc_number: string | null;
    sender_document_number: string | null;
    subject: string;
    summary: string | null;
    sender: string | null;
    receivers: string | null;
    notes: string | null;
  }>(
    db,
    sql`select d.id, d.doc_number, d.sender_document_number, d.subject, d.summary,
          nullif(concat_ws(' — ', s.name_ar, s.name_en), '') as sender,
          nullif(concat_ws(' — ', d.receiver,
            (select string_agg(x.name_ar || ' — ' || x.name_en, '، ' order by r.position)
               from document_recipients r join departments x on x.id = r.department_id
              where r.document_id = d.id),
            rd.name_ar, rd.name_en), '') as receivers,
          nullif(concat_ws(' · ',
            (select string_agg(n.notes, ' · ' order by n.id) from distributions n
              where n.document_id = d.id and n.notes is not null),
            (select string_agg(t.notes, ' · ' order by t.id) from tasks t
              where t.document_id = d.id and t.notes is not null)), '') as notes
        from documents d
        left join departments s on s.id = d.sender_department_id
        left join departments rd on rd.id = d.recipient_department_id
        where d.id in ${inList(ids)}`,
  );
  for (const r of list) {
    out.set(r.id, {
      id: r.id,
      docNumber: r.doc_number,
      senderDocumentNumber: r.sender_document_number,
      subject: r.subject,
      summary: r.summary,
      sender: r.sender,
      receivers: r.receivers,
      notes: r.notes,
    });
  }
  return out;
}

/** The distinct lexemes of a long text, space-separated (an attachment's words: no positions needed). */
export function distinctLexemes(texts: Iterable<string>, limit = 200_000): string {
  const seen = new Set<string>();
  for (const text of texts) {
    for (const lexeme of textLexemes(text)) {
      seen.add(lexeme);
      if (seen.size >= limit) return [...seen].join(' ');
    }
  }
  return [...seen].join(' ');
}

/** The three weighted index texts of a document's own fields (its attachments: attachmentLexemesSql). */
export function weightedTexts(d: DocumentTexts) {
  return {
    a: indexText([d.docNumber, d.senderDocumentNumber, d.subject].filter(Boolean).join(' ')),
    b: indexText([d.summary, d.sender, d.receivers].filter(Boolean).join(' ')),
    c: indexText(d.notes),
  };
}

/** At most this many distinct words of a document's attachments are indexed (PostgreSQL's tsvector: 1 MB). */
const ATTACHMENT_LEXEMES_MAX = 200_000;

/**
 * SQL of the attachment part of a document's index (weight D, no positions): the union of its pages'
 * lexemes, which attachment_pages already holds page by page. Taken there rather than worked out again
 * from the pages' text: a 300-page scan's words were stemmed again in JavaScript, inside the transaction,
 * holding the embedded database for a tenth of a second or more (bench/pdf-viewer).
 */
export function attachmentLexemesSql(documentId: number) {
  return sql`coalesce((select array_to_tsvector(array_agg(x.lexeme)) from (
      select distinct u.lexeme from attachment_pages p
        join document_attachments a on a.id = p.attachment_id
        cross join lateral unnest(p.lexemes) u
       where a.document_id = ${documentId}
       limit ${ATTACHMENT_LEXEMES_MAX}) x), ''::tsvector)`;
}

/** SQL of the tsvector of a document: its weighted fields, and its attachments' words. */
export function lexemesSql(t: { a: string; b: string; c: string }, documentId: number) {
  return sql`setweight(to_tsvector('simple', ${t.a}), 'A') || setweight(to_tsvector('simple', ${t.b}), 'B')
    || setweight(to_tsvector('simple', ${t.c}), 'C') || ${attachmentLexemesSql(documentId)}`;
}

/**
 * Rebuilds the index entry of one document (removes it when the document is gone). Two indexers of one
 * document (a change made while its job ran queues another) take turns on a lock of the document, so the
 * later one reads what the earlier one could not have seen and writes last.
 */
export async function reindexDocument(db: Db, documentId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEARCH_LOCK}, ${documentId})`);
    return reindexLocked(tx, documentId);
  });
}

/** Lock space of the search indexer's document locks (pg_advisory_xact_lock(int, int)). */
const SEARCH_LOCK = 0x5e4c;

async function reindexLocked(db: Tx, documentId: number): Promise<boolean> {
  // The document's row held against its deletion until this commits: deleted between the read below and
  // the insert (a destruction carried out while the index job ran), the insert broke the foreign key and
  // the job failed.
  const live = await rowsOf(db, sql`select 1 from documents where id = ${documentId} for key share`);
  const texts = live.length > 0 ? (await documentTexts(db, [documentId])).get(documentId) : undefined;
  if (!texts) {
    await db.execute(sql`delete from document_search where document_id = ${documentId}`);
    return false;
  }
  await db.execute(sql`insert into document_search (document_id, lexemes, indexed_at, lexicon)
    values (${documentId}, ${lexemesSql(weightedTexts(texts), documentId)}, now(), ${LEXICON_VERSION})
    on conflict (document_id) do update
      set lexemes = excluded.lexemes, indexed_at = excluded.indexed_at, lexicon = excluded.lexicon`);
  return true;
}

/** The tsvector SQL of one page of attachment text (which page matched, for passages). */
export function pageLexemesSql(text: string) {
  return sql`strip(to_tsvector('simple', ${distinctLexemes([text])}))`;
}
