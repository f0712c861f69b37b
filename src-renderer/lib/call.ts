/**
 * Calls an endpoint declared once in src-shared/api (src-shared/api/endpoint.ts): fills its path params,
 * sends its query and body through the http helpers (lib/http.ts: the same toasts and options), and
 * answers its data once checked against the declared answer.
 */
import type { z } from 'zod';
import { fillPath, type AnyEndpoint, type PartOf, type PathParamNames } from '../../src-shared/api/endpoint';
import type { ApiRequest } from '../../src-shared/ipc/contract';
import { http, type HttpOptions } from './http';

type QueryValue = string | number | boolean;

/** The parts of a call an endpoint declares: its path params, its query, its body. */
export type CallInput<E extends AnyEndpoint> = ([PathParamNames<E['path']>] extends [never]
  ? unknown
  : { params: Record<PathParamNames<E['path']>, string | number> }) &
  ([PartOf<E, 'query'>] extends [never]
    ? unknown
    : {
        query?: { [K in keyof z.input<PartOf<E, 'query'>>]?: QueryValue | readonly QueryValue[] | undefined };
      }) &
  ([PartOf<E, 'body'>] extends [never] ? unknown : { body: z.input<PartOf<E, 'body'>> });

/** Options of a call: those of the http helpers but the query (a part of the input) and the answer. */
export type CallOptions = Omit<HttpOptions, 'query' | 'answer'>;

type CallArgs<E extends AnyEndpoint> =
  object extends CallInput<E>
    ? [input?: CallInput<E>, options?: CallOptions]
    : [input: CallInput<E>, options?: CallOptions];

/** Calls `endpoint`; its input is required when it declares path params or a body. */
export function call<E extends AnyEndpoint>(
  endpoint: E,
  ...[input, options]: CallArgs<E>
): Promise<z.output<E['response']>> {
  const parts = (input ?? {}) as { params?: Record<string, string | number>; query?: object; body?: unknown };
  const path = fillPath(endpoint.path, parts.params);
  const sent: HttpOptions = {
    ...options,
    ...(parts.query ? { query: parts.query as ApiRequest['query'] } : {}),
    answer: endpoint.response,
  };
  type Data = z.output<E['response']>;
  switch (endpoint.method) {
    case 'GET':
      return http.get<Data>(path, sent);
    case 'DELETE':
      return http.delete<Data>(path, sent);
    case 'POST':
      return http.post<Data>(path, parts.body, sent);
    case 'PUT':
      return http.put<Data>(path, parts.body, sent);
    case 'PATCH':
      return http.patch<Data>(path, parts.body, sent);
  }
}
