/**
 * The text guard: no request reaches validation with text PostgreSQL cannot store. A NUL character or a
 * lone UTF-16 surrogate anywhere in the path parameters, the query or a JSON body (values and keys, at
 * any depth) answers 400 with the field that carried it, before any handler, audit or query runs. The
 * field schemas refuse them too (src-shared/api/fields.ts); this guard is the one place that covers every
 * route at once, including the fields a schema leaves as free text. A body reaches it already bounded in
 * depth (http/json-depth.ts); the walk itself uses no recursion either.
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

/**
 * The dotted path and message of the first string (or key) in `value` that cannot be stored, or null.
 * Walked with a stack of its own, not by recursion: however deep a value nests (a body is bounded before
 * it is parsed, http/json-depth.ts, but a caller may hand anything), the walk cannot overflow the stack.
 */
export function firstUnstorable(value: unknown, path = ''): { field: string; key: string } | null {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      const key = refusal(current);
      if (key) return { field: at || '_', key };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const entries: [string, unknown][] = Array.isArray(current)
      ? current.map((v, i) => [String(i), v])
      : Object.entries(current);
    for (const [name] of entries) {
      const keyRefusal = refusal(name);
      if (keyRefusal) return { field: at || '_', key: keyRefusal };
    }
    // Pushed last first, so the entries are looked at in their order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [name, inner] = entries[i]!;
      stack.push([inner, at ? `${at}.${name}` : name]);
    }
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
