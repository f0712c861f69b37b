/**
 * The letter that leaves (issue 27): a document's final PDF and the organisation's letter settings (under
 * /correspondence), and the public verification page (under /verify, no sign-in, rate limited, its own
 * CSP and an HTML answer even when refused).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { finalEndpoints as E } from '../../../src-shared/api/final';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { HttpProblem, PROBLEM_STATUS } from '../../http/problem';
import { route } from '../../http/route';
import { sendStoredFile } from '../../http/send-file';
import { metaOf } from '../auth/service';
import * as email from './email';
import * as letters from './letters';
import * as settings from './settings';
import { verifyOutcome, TOKEN_PATTERN } from './verify';
import {
  VERIFY_SCRIPT,
  verifyHeaders,
  verifyPageHtml,
  type VerifyLang,
  type VerifyOutcome,
} from './verify-page';

export const finalModule: AppModule = {
  name: 'final',
  prefix: '/correspondence',
  routes(app, ctx) {
    route(app, E.finalLetter, async (request) => letters.getFinal(ctx, callerOf(request), request.params.id));
    route(app, E.finalFile, async (request, reply) => {
      const file = await letters.finalFile(ctx, callerOf(request), request.params.id);
      return sendStoredFile(
        request,
        reply,
        {
          sha256: file.sha256,
          size: file.size,
          contentType: file.mime,
          fileName: file.fileName,
          disposition: 'inline',
        },
        (range) => ctx.files.open(file.sha256, range),
      );
    });
    route(app, E.remakeFinal, async (request) =>
      letters.remakeFinal(ctx, callerOf(request), request.params.id, metaOf(request).ip),
    );
    route(app, E.cancelFinal, async (request) =>
      letters.cancelFinal(ctx, callerOf(request), request.params.id, request.body.reason, metaOf(request).ip),
    );
    route(app, E.letterSettings, async () => settings.getLetterSettings(ctx));
    route(app, E.saveLetterSettings, async (request) =>
      settings.saveLetterSettings(ctx, callerOf(request), request.body, metaOf(request).ip),
    );
    route(app, E.setCertificate, async (request) =>
      settings.setCertificate(ctx, callerOf(request), request.body, metaOf(request).ip),
    );
    route(app, E.removeCertificate, async (request) =>
      settings.removeCertificate(ctx, callerOf(request), metaOf(request).ip),
    );
    route(app, E.saveSmtp, async (request) =>
      settings.saveSmtp(ctx, callerOf(request), request.body, metaOf(request).ip),
    );
    route(app, E.removeSmtp, async (request) =>
      settings.removeSmtp(ctx, callerOf(request), metaOf(request).ip),
    );
    route(app, E.checkSmtp, async () => settings.checkStoredSmtp(ctx));
    route(app, E.emailDispatches, async (request) =>
      email.listEmailDispatches(ctx, callerOf(request), request.params.id),
    );
    route(app, E.sendEmail, async (request) =>
      email.sendEmail(ctx, callerOf(request), request.params.id, request.body, metaOf(request).ip),
    );
    route(app, E.retryEmail, async (request) =>
      email.retryEmail(
        ctx,
        callerOf(request),
        request.params.id,
        request.params.dispatchId,
        metaOf(request).ip,
      ),
    );
  },
};

/** The verification page's script, served from the server itself (the page's CSP allows 'self' only). */
export const VERIFY_SCRIPT_PATH = '/verify/assets/verify.js';

export const verifyModule: AppModule = {
  name: 'verify',
  prefix: '/verify',
  routes(app, ctx) {
    const perMinute = ctx.config.VERIFY_RATE_LIMIT_PER_MINUTE;
    const langOf = (query: unknown): VerifyLang =>
      (query as { lang?: unknown } | null)?.lang === 'en' ? 'en' : 'ar';

    const page = (
      reply: FastifyReply,
      status: number,
      outcome: VerifyOutcome,
      lang: VerifyLang,
      token: string,
    ) => {
      const nonce = randomBytes(16).toString('base64');
      const other = lang === 'ar' ? 'en' : 'ar';
      const html = verifyPageHtml(outcome, lang, {
        token,
        scriptNonce: nonce,
        otherLangHref: `?lang=${other}`,
        scriptSrc: VERIFY_SCRIPT_PATH,
      });
      return reply
        .status(status)
        .headers(verifyHeaders(nonce))
        .header('content-type', 'text/html; charset=utf-8')
        .send(html);
    };

    // Refused by the rate limit: the same page, saying when to try again (not the API's JSON problem).
    app.setErrorHandler((error, request, reply) => {
      // The app's own refusals (a control character in the address: 400) and Fastify's (429) alike.
      const status =
        error instanceof HttpProblem
          ? PROBLEM_STATUS[error.kind]
          : ((error as { statusCode?: number }).statusCode ?? 500);
      const lang = langOf(request.query);
      if (status === 429) {
        const retry = Number(reply.getHeader('retry-after')) || 60;
        return page(reply, 429, { kind: 'tooMany', retryAfterSeconds: retry }, lang, '');
      }
      if (status >= 500) request.log.error({ err: error }, 'verify: failed');
      return page(reply, status >= 400 && status < 500 ? status : 500, { kind: 'unknown' }, lang, '');
    });

    app.get('/assets/verify.js', { config: { access: 'public' } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(VERIFY_SCRIPT),
    );

    app.get<{ Params: { token: string }; Querystring: { lang?: string } }>(
      '/:token',
      {
        config: {
          access: 'public',
          rateLimit: perMinute > 0 ? { max: perMinute, timeWindow: 60_000 } : (false as const),
        },
      },
      async (request, reply) => {
        const lang = langOf(request.query);
        const token = request.params.token;
        const outcome: VerifyOutcome = TOKEN_PATTERN.test(token)
          ? await verifyOutcome(ctx, token)
          : { kind: 'unknown' };
        return page(reply, outcome.kind === 'found' ? 200 : 404, outcome, lang, token);
      },
    );
  },
};
