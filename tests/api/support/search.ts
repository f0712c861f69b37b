/** Search in API tests: wait until the background work (reading attachments, indexing) is done. */
import type { Harness } from './harness';

/**
 * How long a test waits for search work (an OCR of a scan on a busy machine takes minutes): a guard
 * against a hang, never a speed limit. Tests that wait for it take SEARCH_TEST_TIMEOUT_MS as their own.
 */
export const SEARCH_WORK_CEILING_MS = 10 * 60_000;
export const SEARCH_TEST_TIMEOUT_MS = SEARCH_WORK_CEILING_MS + 60_000;

/** Waits until the search work of every change so far is done (the app's own job queue runs it). */
export async function settleSearch(h: Harness, timeoutMs = SEARCH_WORK_CEILING_MS): Promise<void> {
  await h.jobs.drain({ timeoutMs });
}
