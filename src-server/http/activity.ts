/**
 * Whether the server is answering requests: a count of those in flight and when the last began or
 * ended. The background job queue asks it before claiming work, so that jobs yield to people and
 * stations while they are being served (jobs/queue.ts, `yieldWhenBusy`). An exchange ends when its
 * response is sent or its client goes away, whichever comes first (as the admission gate counts them).
 */
import type { FastifyInstance } from 'fastify';
import { performance } from 'node:perf_hooks';

/**
 * Paths whose exchanges last as long as the client stays (server-sent events), and the probes of the
 * desktop, the proxy and the metrics scraper: answering them serves nobody's work.
 */
const NOT_ACTIVITY = /^\/(notifications\/stream|health|ready|metrics)(\?|$)/;

/** Installs the counter as a request hook; answers whether requests were answered within `withinMs`. */
export function installRequestActivity(app: FastifyInstance): (withinMs: number) => boolean {
  let inFlight = 0;
  let lastActive = Number.NEGATIVE_INFINITY;
  app.addHook('onRequest', async (request, reply) => {
    // A notification stream stays open for hours, a probe asks every few seconds: neither is a person
    // or a station being served.
    if (NOT_ACTIVITY.test(request.url)) return;
    inFlight += 1;
    lastActive = performance.now();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      inFlight -= 1;
      lastActive = performance.now();
    };
    if (reply.raw.destroyed) end();
    else reply.raw.once('close', end);
  });
  return (withinMs) => inFlight > 0 || performance.now() - lastActive < withinMs;
}
