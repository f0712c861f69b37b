/**
 * HTTP routes of the first-run setup, sign-in, two-factor, the profile and the caller's page tree
 * (docs/api.md, "Auth and session"). Rules live in service.ts.
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { envelopeOf } from '../../../src-shared/api/envelope';
import {
  accessTokenSchema,
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  preferencesRequestSchema,
  profileSchema,
  recoveryCodesSchema,
  setupRequestSchema,
  setupStatusSchema,
  twoFactorEnableRequestSchema,
  twoFactorProofSchema,
  twoFactorSetupQuerySchema,
  twoFactorSetupSchema,
  twoFactorSkipRequestSchema,
  twoFactorVerifyRequestSchema,
  twoFactorVerifyResponseSchema,
  userPagesTreeSchema,
} from '../../../src-shared/api/auth';
import type { App, AppModule } from '../../app-type';
import type { ServerContext } from '../../context';
import { bearerToken, callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { HttpProblem } from '../../http/problem';
import * as auth from './service';

const tags = ['auth'];
const security = [{ bearer: [] }];

/** Registers the auth routes. */
export function authRoutes(ctx: ServerContext) {
  return async (app: App) => {
    const limit = ctx.config.AUTH_RATE_LIMIT_PER_MINUTE;
    /** Per-route limiter of the sign-in and two-factor routes (off when configured 0). */
    const rateLimit = limit > 0 ? { max: limit, timeWindow: 60_000 } : false;

    app.get(
      '/setup',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Whether the first administrator is still to be made',
          response: { 200: envelopeOf(setupStatusSchema) },
        },
      },
      async (request) => envelope(request, { needed: await auth.setupNeeded(ctx) }),
    );

    app.post(
      '/setup',
      {
        config: { access: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Create the first administrator (only while no user exists)',
          body: setupRequestSchema,
          response: { 201: envelopeOf(loginResponseSchema) },
        },
      },
      async (request, reply) => {
        const result = await auth.createFirstAdmin(ctx, request.body, auth.metaOf(request));
        return reply.status(201).send(envelope(request, result, 'messages.setupDone'));
      },
    );

    app.post(
      '/auth/login',
      {
        config: { access: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Sign in with email or username and password',
          body: loginRequestSchema,
          response: { 200: envelopeOf(loginResponseSchema) },
        },
      },
      async (request) => {
        const result = await auth.signIn(ctx, request.body, auth.metaOf(request));
        return envelope(
          request,
          result,
          'accessToken' in result ? 'messages.signedIn' : 'messages.twoFactorNeeded',
        );
      },
    );

    app.get(
      '/auth/two-factor/setup',
      {
        // Public at the hook: the handler accepts either a sign-in challenge or a bearer session.
        config: { access: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Enrolment material (otpauth URI, QR code, secret)',
          querystring: twoFactorSetupQuerySchema,
          security,
          response: { 200: envelopeOf(twoFactorSetupSchema) },
        },
      },
      async (request) => {
        if (request.query.challengeToken)
          return envelope(
            request,
            await auth.twoFactorSetup(ctx, { challengeToken: request.query.challengeToken }),
          );
        const token = bearerToken(request);
        const found = token ? await auth.authenticator(ctx)(token, null, request) : null;
        if (!found) throw new HttpProblem('unauthorized');
        return envelope(request, await auth.twoFactorSetup(ctx, { caller: found.auth }));
      },
    );

    app.post(
      '/auth/two-factor/verify',
      {
        config: { access: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Complete sign-in with a TOTP or recovery code',
          body: twoFactorVerifyRequestSchema,
          response: { 200: envelopeOf(twoFactorVerifyResponseSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await auth.verifyChallenge(
            ctx,
            request.body.challengeToken,
            request.body.code,
            auth.metaOf(request),
          ),
          'messages.signedIn',
        ),
    );

    app.post(
      '/auth/two-factor/skip',
      {
        config: { access: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Skip two-factor enrolment for now (where the role allows)',
          body: twoFactorSkipRequestSchema,
          response: { 200: envelopeOf(accessTokenSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await auth.skipChallenge(ctx, request.body.challengeToken, auth.metaOf(request)),
          'messages.signedIn',
        ),
    );

    app.post(
      '/auth/two-factor/enable',
      {
        config: { access: 'authenticated', rateLimit },
        schema: {
          tags,
          summary: 'Turn two-factor on with a first code',
          security,
          body: twoFactorEnableRequestSchema,
          response: { 200: envelopeOf(recoveryCodesSchema) },
        },
      },
      async (request) => {
        const codes = await auth.enableTwoFactor(
          ctx,
          callerOf(request),
          request.body.code,
          auth.metaOf(request),
        );
        return envelope(request, { recoveryCodes: codes }, 'messages.twoFactorEnabled');
      },
    );

    app.post(
      '/auth/two-factor/disable',
      {
        config: { access: 'authenticated', rateLimit },
        schema: {
          tags,
          summary: 'Turn two-factor off (with a code or the password)',
          security,
          body: twoFactorProofSchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => {
        await auth.disableTwoFactor(ctx, callerOf(request), request.body, auth.metaOf(request));
        return envelope(request, null, 'messages.twoFactorDisabled');
      },
    );

    app.post(
      '/auth/two-factor/recovery-codes',
      {
        config: { access: 'authenticated', rateLimit },
        schema: {
          tags,
          summary: 'New recovery codes (the old ones stop working)',
          security,
          body: twoFactorProofSchema,
          response: { 200: envelopeOf(recoveryCodesSchema) },
        },
      },
      async (request) => {
        const codes = await auth.renewRecoveryCodes(
          ctx,
          callerOf(request),
          request.body,
          auth.metaOf(request),
        );
        return envelope(request, { recoveryCodes: codes }, 'messages.recoveryCodesRenewed');
      },
    );

    app.post(
      '/auth/logout',
      {
        config: { access: 'authenticated' },
        schema: { tags, summary: 'End this session', security, response: { 200: envelopeOf(z.null()) } },
      },
      async (request) => {
        await auth.logout(ctx, callerOf(request), auth.metaOf(request));
        return envelope(request, null, 'messages.signedOut');
      },
    );

    app.get(
      '/auth/profile',
      {
        config: { access: 'authenticated' },
        schema: {
          tags,
          summary: 'The signed-in user',
          security,
          response: { 200: envelopeOf(profileSchema) },
        },
      },
      async (request) => envelope(request, auth.profileOf(callerOf(request))),
    );

    app.put(
      '/auth/profile/preferences',
      {
        config: { access: 'authenticated' },
        schema: {
          tags,
          summary: 'Change my own settings (date format, digits, home page); answers my profile',
          security,
          body: preferencesRequestSchema,
          response: { 200: envelopeOf(profileSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await auth.setPreferences(ctx, callerOf(request), request.body),
          'messages.preferencesSaved',
        ),
    );

    app.put(
      '/auth/profile/password',
      {
        config: { access: 'authenticated', rateLimit },
        schema: {
          tags,
          summary: 'Change my password (every session ends; a fresh token is returned)',
          security,
          body: changePasswordRequestSchema,
          response: { 200: envelopeOf(accessTokenSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await auth.changeOwnPassword(ctx, callerOf(request), request.body, auth.metaOf(request)),
          'messages.passwordChanged',
        ),
    );

    app.get(
      '/auth/user-pages-tree',
      {
        config: { access: 'authenticated' },
        schema: {
          tags,
          summary: 'The sections and pages I may see, with my permissions',
          security,
          response: { 200: envelopeOf(userPagesTreeSchema) },
        },
      },
      // Every client loads it: the answer is cached already serialised per role while the database's
      // access version is unchanged (service.ts), and sent as is (a JSON string skips the serialiser;
      // the typed reply only knows the object form). The schema still documents it in OpenAPI.
      async (request, reply) => {
        const json = await auth.pageTreeJson(ctx, callerOf(request));
        return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
      },
    );
  };
}

/** Not yet declared in src-shared/api: its routes carry their full paths (prefix ''). */
export const authModule: AppModule = { name: 'auth', prefix: '', routes: (app, ctx) => authRoutes(ctx)(app) };
