/** HTTP routes of search: GET /search and its suggestions, on the search page (its own page permission). */
import { searchEndpoints } from '../../../src-shared/api/search';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import { search, suggest } from './service';

export const searchModule: AppModule = {
  name: 'search',
  prefix: '/search',
  routes: (app, ctx) => {
    route(app, searchEndpoints.search, async (request) => search(ctx, callerOf(request), request.query));
    route(app, searchEndpoints.suggest, async (request) => suggest(ctx, callerOf(request), request.query));
  },
};
