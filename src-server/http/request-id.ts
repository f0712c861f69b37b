/**
 * Every request has an id: the proxy's `X-Request-Id` when it sent a well-formed one (nginx's
 * `$request_id`, a load balancer's trace id), else a fresh UUID. It is Fastify's `request.id`, so every
 * log line of the request carries it (`reqId`); it is answered in the `X-Request-Id` header, and the
 * audit records written while the request is served keep it in their details (audit.ts), so one id leads
 * from the proxy's access log to the server's log lines and to the audit log.
 *
 * The audit code is reached through services that know nothing of the request, so the id travels in an
 * AsyncLocalStorage entered for the request's hooks and handler (as @fastify/request-context does).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The header the id comes in and goes out with. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy's id may look like: 8 to 128 letters, digits and `._:+/=-` (no spaces, no line breaks). */
const WELL_FORMED = /^[\w.:+/=-]{8,128}$/;

/** The request's id: the proxy's when well-formed, else a new UUID (Fastify's `genReqId`). */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}

const current = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request being served here, if any (undefined in background jobs and at start). */
export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

/**
 * Answers the id in the response header and enters it for the request's hooks and handler. Entered
 * again before validation: the body is read from the socket's own events, outside the request's context.
 */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    current.run({ requestId: request.id }, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    current.run({ requestId: request.id }, done);
  });
}
