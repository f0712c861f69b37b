/**
 * An endpoint declared once (docs/decisions.md, "Endpoints declared once"): its method, path, path
 * params, query, body and answer, with who may call it. The server registers its route from this
 * declaration (src-server/http/route.ts) and the renderer calls it from the same one
 * (src-renderer/lib/http.ts `call`), which fills the path params and checks the answer against
 * `response`. The shapes live in src-shared/api/<area>.ts beside the schemas they use.
 */
import { z } from 'zod';
import type { Permission } from '../permissions';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an endpoint, enforced before its handler runs (src-server/http/access.ts): anyone, any
 * signed-in user, or a signed-in user holding a permission on a page.
 */
export type EndpointAccess = 'public' | 'authenticated' | { page: string; permission: Permission };

/** What one part of a multipart body holds: one file, files, a field holding JSON, or text. */
export type MultipartPart = 'file' | 'files' | 'json' | 'text';

/**
 * A success status an endpoint answers: 200, 201 (created), 202 (accepted: a background job will do the
 * work), or either of the first two (201 created, 200 replayed).
 */
export type SuccessStatus = 200 | 201 | 202 | readonly [200, 201];

/** The parsed body of a declared body schema (undefined when there is none). */
export type BodyOf<Body extends z.ZodType | undefined> = Body extends z.ZodType ? z.output<Body> : undefined;

/** A success message: its catalogue key, or the key with the values its text names (`{{docNumber}}`). */
export type Message = string | { key: string; params: Readonly<Record<string, unknown>> };

/** Chooses a success message (method-style, so a declaration's own types still make an AnyEndpoint). */
type ChooseMessage<A> = { choose(answer: A): Message }['choose'];

export interface EndpointSpec<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> {
  method: M;
  /** The full path, Fastify style (`/auth/users/:id`); every `:name` is a key of `params`. */
  path: P;
  params?: Params;
  query?: Query;
  body?: Body;
  /**
   * A multipart body instead of a JSON one: its parts in order (the handler reads them from the stream;
   * the OpenAPI document publishes them).
   */
  multipart?: Readonly<Record<string, MultipartPart>>;
  /**
   * The answer's `data` (the route wraps it in the `{ data, returnMessage }` envelope). An endpoint that
   * answers a file's bytes (`bytes`) declares `fileAnswer`, and its handler sends the answer itself.
   */
  response: Response;
  /** The answer is the bytes of a file of this media type (`application/pdf`), sent by the handler. */
  bytes?: string;
  /** 200 unless told. */
  status?: SuccessStatus;
  /**
   * The success message's catalogue key (the envelope's `returnMessage`; non-GET answers say
   * 'messages.saved' unless told), or the key (with the values its text names) chosen from the
   * request's body and the answer's data.
   */
  message?: string | ChooseMessage<{ body: BodyOf<Body>; data: z.input<Response> }>;
  access: EndpointAccess;
  /**
   * What the service checks on top of `access`, for a route whose real permission depends on the record
   * (the document's direction: `requireOnDirection` in the correspondence services). Documentation only:
   * the access hook still enforces `access`.
   */
  permission?: 'by-direction';
  /** OpenAPI: the operation's tags and summary. */
  tags: readonly string[];
  summary: string;
  /** OpenAPI: the operation's longer description (the headers it reads, what a retry answers). */
  description?: string;
  /** OpenAPI: the operation names the bearer scheme (default: every route that is not public). */
  bearer?: boolean;
}

/** The `response` of an endpoint that answers a file's bytes: no JSON, the handler sends the bytes. */
export const fileAnswer: z.ZodNever = z.never();

/** Declares an endpoint (keeps the literal types of its path and schemas). */
export function endpoint<
  const M extends HttpMethod,
  const P extends string,
  Response extends z.ZodType,
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(
  spec: EndpointSpec<M, P, Params, Query, Body, Response>,
): EndpointSpec<M, P, Params, Query, Body, Response> {
  return spec;
}

/** Any declared endpoint. */
export type AnyEndpoint = EndpointSpec<
  HttpMethod,
  string,
  z.ZodType | undefined,
  z.ZodType | undefined,
  z.ZodType | undefined,
  z.ZodType
>;

/** The `:name` segments of a path. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** Fills a path's `:name` segments (each value URI-encoded). */
export function fillPath(path: string, params: Readonly<Record<string, string | number>> = {}): string {
  return path.replace(/:([A-Za-z][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path ${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/** The schema an endpoint declares for its params, query or body (`never` when it declares none). */
export type PartOf<E extends AnyEndpoint, K extends 'params' | 'query' | 'body'> = Exclude<E[K], undefined>;

/** The success message of an activate-or-deactivate endpoint, from what it was asked. */
export const activatedOrNot = ({ body }: { body: { active: boolean } }) =>
  body.active ? 'messages.activated' : 'messages.deactivated';
