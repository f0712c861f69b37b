/** Search in API tests: wait until the background work (reading attachments, indexing) is done. */
import type { Harness } from './harness';

/** Waits until the search work of every change so far is done (the app's own job queue runs it). */
export async function settleSearch(h: Harness, timeoutMs = 120_000): Promise<void> {
  await h.jobs.drain({ timeoutMs });
}
