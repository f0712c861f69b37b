/** HTTP routes of search: GET /search on the search page (its own page permission). */
import { envelopeOf } from '../../../src-shared/api/envelope';
import { searchPageSchema, searchQuerySchema } from '../../../src-shared/api/search';
import { PAGES } from '../../../src-shared/pages';
import type { App } from '../../app';
import type { ServerContext } from '../../context';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { search } from './service';
import { closeOcr } from './extract';
import { enqueueMissingSearchWork, registerSearchJobs } from './jobs';

/** Registers search: its route, its background jobs, and the work left from before (queued again at start). */
export function searchRoutes(ctx: ServerContext) {
  return async (app: App) => {
    registerSearchJobs(ctx);
    // The process that runs the jobs also picks up what was left from before (an upgrade, a restore).
    if (ctx.config.JOBS_WORKER)
      app.addHook('onReady', async () => {
        await enqueueMissingSearchWork(ctx).catch((error: unknown) =>
          app.log.warn({ err: error }, 'search: could not queue the work left from before'),
        );
      });
    app.addHook('onClose', async () => closeOcr());
    app.get(
      '/search',
      {
        config: { access: { page: PAGES.search, permission: 'view' as const } },
        schema: {
          tags: ['search'],
          security: [{ bearer: [] }],
          summary:
            'Search every document the caller may see: number, references, subject, summary, sender, ' +
            'receivers, notes and attachment text (Arabic normalised and stemmed; English stemmed)',
          querystring: searchQuerySchema,
          response: { 200: envelopeOf(searchPageSchema) },
        },
      },
      async (request) => envelope(request, await search(ctx, callerOf(request), request.query)),
    );
  };
}
