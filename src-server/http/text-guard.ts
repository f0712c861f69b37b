/**
 * The text guard: no request reaches validation with text PostgreSQL cannot store. A NUL character or a
 * lone UTF-16 surrogate anywhere in the path parameters, the query or a JSON body (values and keys, at
 * any depth) answers 400 with the field that carried it, before any handler, audit or query runs. The
 * field schemas refuse them too (src-shared/api/fields.ts); this guard is the one place that covers every
 * route at once, including the fields a schema leaves as free text.
 */
import type { FastifyInstance } from 'fastify';
import { isStorableText } from '../../src-shared/api/fields';
import { HttpProblem } from './problem';

/** Why a string cannot be stored (a field message key), or null when it can. */
function refusal(text: string): string | null {
  if (isStorableText(text)) return null;
  // NUL is a control character, as the field message says; a lone surrogate is not text at all.
  return text.includes('\u0000') ? 'validation.controlCharacters' : 'validation.invalidText';
}

/** The dotted path and message of the first string (or key) in `value` that cannot be stored, or null. */
export function firstUnstorable(value: unknown, path = ''): { field: string; key: string } | null {
  if (typeof value === 'string') {
    const key = refusal(value);
    return key ? { field: path || '_', key } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  for (const [name, inner] of entries) {
    const keyRefusal = refusal(name);
    if (keyRefusal) return { field: path || '_', key: keyRefusal };
    const found = firstUnstorable(inner, path ? `${path}.${name}` : name);
    if (found) return found;
  }
  return null;
}

/** Installs the guard (a preValidation hook on every route). */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const found =
      firstUnstorable(request.params) ?? firstUnstorable(request.query) ?? firstUnstorable(request.body);
    if (found) throw new HttpProblem('badRequest', { fields: { [found.field]: [{ key: found.key }] } });
  });
}
