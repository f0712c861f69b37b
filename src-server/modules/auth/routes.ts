/**
 * HTTP routes of the first-run setup, sign-in, two-factor, the profile and the caller's page tree, from
 * their endpoints (src-shared/api/auth.ts; docs/api.md, "Auth and session"). Rules live in service.ts.
 */
import type { FastifyReply } from 'fastify';
import { authEndpoints as E } from '../../../src-shared/api/auth';
import type { AppModule } from '../../app-type';
import { bearerToken, callerOf } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { route } from '../../http/route';
import * as auth from './service';

export const authModule: AppModule = {
  name: 'auth',
  // '/setup' and '/auth/…' (the administration under /auth is the admin module).
  prefix: '',
  routes: (app, ctx) => {
    const limit = ctx.config.AUTH_RATE_LIMIT_PER_MINUTE;
    /** Per-route limiter of the sign-in and two-factor routes (off when configured 0). */
    const limited = {
      config: { rateLimit: limit > 0 ? { max: limit, timeWindow: 60_000 } : (false as const) },
    };

    route(app, E.setupStatus, async () => ({ needed: await auth.setupNeeded(ctx) }));

    route(
      app,
      E.setup,
      async (request) => {
        const result = await auth.createFirstAdmin(ctx, request.body, auth.metaOf(request));
        return result;
      },
      limited,
    );

    route(
      app,
      E.login,
      async (request) => {
        const result = await auth.signIn(ctx, request.body, auth.metaOf(request));
        return result;
      },
      limited,
    );

    route(
      app,
      E.twoFactorSetup,
      async (request) => {
        if (request.query.challengeToken)
          return await auth.twoFactorSetup(ctx, { challengeToken: request.query.challengeToken });
        const token = bearerToken(request);
        const found = token ? await auth.authenticator(ctx)(token, null, request) : null;
        if (!found) throw new HttpProblem('unauthorized');
        return await auth.twoFactorSetup(ctx, { caller: found.auth });
      },
      limited,
    );

    route(
      app,
      E.twoFactorVerify,
      async (request) =>
        auth.verifyChallenge(ctx, request.body.challengeToken, request.body.code, auth.metaOf(request)),
      limited,
    );

    route(
      app,
      E.twoFactorSkip,
      async (request) => auth.skipChallenge(ctx, request.body.challengeToken, auth.metaOf(request)),
      limited,
    );

    route(
      app,
      E.twoFactorEnable,
      async (request) => {
        const codes = await auth.enableTwoFactor(
          ctx,
          callerOf(request),
          request.body.code,
          auth.metaOf(request),
        );
        return { recoveryCodes: codes };
      },
      limited,
    );

    route(
      app,
      E.twoFactorDisable,
      async (request) => {
        await auth.disableTwoFactor(ctx, callerOf(request), request.body, auth.metaOf(request));
        return null;
      },
      limited,
    );

    route(
      app,
      E.recoveryCodes,
      async (request) => {
        const codes = await auth.renewRecoveryCodes(
          ctx,
          callerOf(request),
          request.body,
          auth.metaOf(request),
        );
        return { recoveryCodes: codes };
      },
      limited,
    );

    route(app, E.logout, async (request) => {
      await auth.logout(ctx, callerOf(request), auth.metaOf(request));
      return null;
    });

    route(app, E.profile, async (request) => auth.profileOf(callerOf(request)));

    route(app, E.preferences, async (request) => auth.setPreferences(ctx, callerOf(request), request.body));

    route(
      app,
      E.changePassword,
      async (request) => auth.changeOwnPassword(ctx, callerOf(request), request.body, auth.metaOf(request)),
      limited,
    );

    // Every client loads it: the answer is cached already serialised per role while the database's
    // access version is unchanged (service.ts), and sent as is (a JSON string skips the serialiser;
    // the typed reply only knows the object form). The schema still documents it in OpenAPI.
    route(app, E.userPagesTree, async (request, reply) => {
      const json = await auth.pageTreeJson(ctx, callerOf(request));
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
    });
  },
};
