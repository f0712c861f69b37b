/**
 * JSON nested no deeper than the server will walk. Every JSON the server reads from a request — a JSON
 * body (app.ts installs `installBoundedJsonParser`), the JSON fields of a query (`filters`, a list's
 * cursor) and the JSON field of a multipart request (the intake batch's manifest) — is measured before it
 * is parsed: deeper than `JSON_MAX_DEPTH` arrays and objects is a 400 saying so, in the caller's language,
 * before any code (the text guard, zod, a handler) walks it. The measure is one pass over the text, with
 * no recursion, so no text can overflow the stack here; what passes is shallow enough for any walker.
 * No route of the API takes more than a handful of levels; 64 leaves room for any honest client.
 */
import type { FastifyInstance } from 'fastify';
import { JSON_MAX_DEPTH, nestsDeeperThan } from '../../src-shared/json-depth';
import { HttpProblem } from './problem';

// The measure itself is shared (db/ reads list filters and cursors with it).
export { JSON_MAX_DEPTH, nestsDeeperThan };

/** The 400 for JSON nested deeper than the limit (`field` names where it came, when not the body). */
export function tooDeep(field?: string): HttpProblem {
  return new HttpProblem('badRequest', {
    detailKey: 'errors.badRequest.tooDeep',
    code: 'request.tooDeep',
    params: { max: JSON_MAX_DEPTH },
    ...(field
      ? { fields: { [field]: [{ key: 'validation.tooDeep', params: { max: JSON_MAX_DEPTH } }] } }
      : {}),
  });
}

/**
 * Parses JSON that came with a request: throws `tooDeep(field)` when it nests deeper than the limit, and
 * JSON.parse's SyntaxError when it is not JSON (callers answer their own 400 for that).
 */
export function parseRequestJson(text: string, field?: string): unknown {
  if (nestsDeeperThan(text)) throw tooDeep(field);
  return JSON.parse(text) as unknown;
}

/**
 * Replaces Fastify's JSON body parser with the same parser (prototype poisoning refused as before)
 * behind the depth bound: a body nested too deep is refused before it is parsed.
 */
export function installBoundedJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text)) {
      done(tooDeep(), undefined);
      return;
    }
    parse(request, text, done);
  });
}
