/**
 * HTTP routes of delegations and stalled circuits, from their endpoints (src-shared/api/delegations.ts).
 * Rules live in service.ts.
 */
import { delegationEndpoints as e } from '../../../src-shared/api/delegations';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import * as delegation from './service';

export const delegationModule: AppModule = {
  name: 'delegation',
  prefix: '/delegations',
  routes: (app, ctx) => {
    route(app, e.mine, async (request) => delegation.myDelegations(ctx, callerOf(request)));
    route(app, e.candidates, async (request) => delegation.delegationCandidates(ctx, request.query.q));
    route(app, e.create, async (request) => {
      const caller = callerOf(request);
      return delegation.createDelegation(
        ctx,
        caller,
        { ...request.body, delegatorId: caller.userId },
        request.ip ?? null,
      );
    });
    route(app, e.end, async (request) =>
      delegation.endDelegation(ctx, callerOf(request), request.params.id, false, request.ip ?? null),
    );
    route(app, e.list, async (request) => delegation.listDelegations(ctx, request.query));
    route(app, e.createFor, async (request) =>
      delegation.createDelegation(ctx, callerOf(request), request.body, request.ip ?? null),
    );
    route(app, e.endAny, async (request) =>
      delegation.endDelegation(ctx, callerOf(request), request.params.id, true, request.ip ?? null),
    );
    route(app, e.stalled, async () => delegation.stalledCircuits(ctx));
    route(app, e.replace, async (request) =>
      delegation.replaceApprover(
        ctx,
        callerOf(request),
        request.params.memberId,
        request.body.userId,
        request.ip ?? null,
      ),
    );
  },
};
