/**
 * Builds the Fastify application: zod validation and serialisation, helmet, the OpenAPI document at
 * `/docs/json` (UI at `/docs`), the caller's locale, and one error handler that turns every failure into
 * localised problem details. Feature modules register themselves through `modules`.
 */
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { pickLocale } from '../src-shared/locale';
import { healthSchema, envelopeOf } from '../src-shared/api/envelope';
import type { ServerConfig } from './config';
import { HttpProblem, fieldsOf, renderProblem } from './http/problem';
import { VERSION } from './version';

/** The app with the zod type provider, as every module sees it. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A feature module: registers its routes on the app. */
export type AppModule = (app: App) => Promise<void> | void;

export interface BuildAppOptions {
  config: ServerConfig;
  /** Feature modules, registered after the plumbing. */
  modules?: AppModule[];
  logger?: boolean;
}

export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ? { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] } : false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorateRequest('locale', 'ar');
  app.addHook('onRequest', async (request) => {
    request.locale = pickLocale(request.headers['accept-language']);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
      },
    },
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Sijill API', version: VERSION, description: 'Correspondence and electronic archiving' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.setErrorHandler((error, request, reply) => {
    let problem: HttpProblem;
    if (error instanceof HttpProblem) {
      problem = error;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      problem = new HttpProblem('badRequest', { fields: fieldsOf(error.validation, error.validationContext) });
    } else if (typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number') {
      const status = error.statusCode;
      problem = new HttpProblem(
        status === 413
          ? 'payloadTooLarge'
          : status === 415
            ? 'unsupportedMediaType'
            : status === 429
              ? 'tooManyRequests'
              : status === 404
                ? 'notFound'
                : status >= 400 && status < 500
                  ? 'badRequest'
                  : 'internal',
        status === 413 ? { params: { maxSize: `${Math.round(config.UPLOAD_MAX_BYTES / 1024 / 1024)} MB` } } : {},
      );
      if (status >= 500) request.log.error({ err: error }, 'request failed');
    } else {
      request.log.error({ err: error }, 'request failed');
      problem = new HttpProblem('internal');
    }
    const body = renderProblem(problem, request.locale);
    return reply.status(body.status).type('application/problem+json; charset=utf-8').send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body = renderProblem(new HttpProblem('notFound'), request.locale);
    return reply.status(404).type('application/problem+json; charset=utf-8').send(body);
  });

  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], summary: 'Liveness and version', response: { 200: envelopeOf(healthSchema) } },
    },
    async () => ({ data: { status: 'ok' as const, version: VERSION } }),
  );

  for (const register of options.modules ?? []) await register(app);
  return app;
}
