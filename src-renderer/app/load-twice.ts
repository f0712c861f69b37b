/**
 * A route's chunk is loaded once more after a short pause before it counts as failed (router.tsx wraps
 * every `lazy` in `loadTwice`). Kept apart from the router so the end-to-end tests can read its console word.
 */

/** How long a failed chunk load waits before its one more try (a network blip, a busy server). */
export const RETRY_PAUSE_MS = 600;

/** What the console says when a chunk's first load fails (the second try follows). */
export const FIRST_TRY_FAILED = "A route's code failed to load; trying once more:";

/**
 * `load` once more after `pauseMs` if it fails; the second failure is the route's error. A failed fetch of
 * a module is not kept in the module map by today's Chromium (whatwg/html#10327), so the same URL is
 * fetched again; an older engine that kept it fails the second try at once, and the error page's "Try
 * again" reloads the document, whose module map is new.
 */
export function loadTwice<T>(load: () => Promise<T>, pauseMs = RETRY_PAUSE_MS): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      console.warn(FIRST_TRY_FAILED, error);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      return load();
    }
  };
}
