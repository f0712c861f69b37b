/** Search in API tests: wait until the background work (reading attachments, indexing) is done. */
import { reindexDocument } from '../../../src-server/modules/search/indexer';
import type { Harness } from './harness';

/** Brings the search index up to date with every change made so far. */
export async function settleSearch(h: Harness): Promise<void> {
  const ids = await h.query<{ id: number }>('select id from documents order by id');
  for (const { id } of ids) await reindexDocument(h.database.db, Number(id));
}
