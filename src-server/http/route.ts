/**
 * Registers a route from its endpoint declaration (src-shared/api/endpoint.ts): the access declaration,
 * the OpenAPI tags, summary and bearer scheme, the zod schemas Fastify validates the params, query and
 * body with, and the envelope of the answer (the handler's data and the declared success message).
 * The module's plugin has its URL prefix; the declaration's path is the full one.
 */
import type { FastifyContextConfig, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { AnyEndpoint, PartOf } from '../../src-shared/api/endpoint';
import { envelopeOf } from '../../src-shared/api/envelope';
import { envelope } from './envelope';
import { multipartSchema } from './upload';
import type { App } from '../app-type';

type Out<E extends AnyEndpoint, K extends 'params' | 'query' | 'body'> = [PartOf<E, K>] extends [never]
  ? unknown
  : z.output<PartOf<E, K>>;

/** The request of an endpoint's handler: params, query and body as its schemas parse them. */
export type EndpointRequest<E extends AnyEndpoint> = FastifyRequest<{
  Params: Out<E, 'params'>;
  Querystring: Out<E, 'query'>;
  Body: Out<E, 'body'>;
}>;

/**
 * A handler answers the declared data, which the route wraps in the envelope with the declared message,
 * or sends the answer itself and returns the reply (another status, a file, a cached JSON string).
 */
export type EndpointHandler<E extends AnyEndpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<z.input<E['response']> | FastifyReply>;

/** What a route adds to its declaration on the server only (a rate limit, headers it reads). */
export interface RouteExtras {
  config?: Omit<FastifyContextConfig, 'access'>;
  schema?: Pick<FastifySchema, 'headers'>;
}

/** Registers `endpoint` on the module's plugin `app` (whose prefix its path starts with). */
export function route<E extends AnyEndpoint>(
  app: App,
  endpoint: E,
  handler: EndpointHandler<E>,
  extras: RouteExtras = {},
): void {
  if (!endpoint.path.startsWith(app.prefix))
    throw new Error(`${endpoint.method} ${endpoint.path} is outside its module's prefix ${app.prefix}`);
  const statuses = typeof endpoint.status === 'object' ? endpoint.status : [endpoint.status ?? 200];
  // A route that only creates (201) or only accepts work (202) answers that status.
  const fixed = endpoint.status === 201 || endpoint.status === 202 ? endpoint.status : null;
  const bearer = endpoint.bearer ?? endpoint.access !== 'public';
  app.route({
    method: endpoint.method,
    // The plugin adds its prefix ('' rather than '/' for the prefix itself: no second, slashed route).
    url: endpoint.path.slice(app.prefix.length),
    config: { ...extras.config, access: endpoint.access },
    schema: {
      tags: [...endpoint.tags],
      ...(bearer ? { security: [{ bearer: [] }] } : {}),
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.multipart ? multipartSchema(endpoint.multipart) : {}),
      ...extras.schema,
      // A file's bytes are sent as they are (no serialiser); the rest is the envelope of the data.
      ...(endpoint.bytes
        ? {}
        : { response: Object.fromEntries(statuses.map((s) => [s, envelopeOf(endpoint.response)])) }),
    } as FastifySchema,
    handler: async (request, reply) => {
      // The handler may still choose another (e.g. 200 on a replay).
      if (fixed) reply.status(fixed);
      const data = await handler(request as EndpointRequest<E>, reply);
      if (data === reply) return reply;
      const message =
        typeof endpoint.message === 'function'
          ? endpoint.message({ body: request.body, data })
          : endpoint.message;
      return typeof message === 'object'
        ? envelope(request, data, message.key, message.params)
        : envelope(request, data, message);
    },
  });
}
