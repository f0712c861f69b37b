/**
 * How deeply JSON text nests, measured before it is parsed. The server bounds every JSON it reads from a
 * request with this (src-server/http/json-depth.ts answers the 400; src-server/db reads list filters and
 * cursors with it). One pass over the text, with no recursion, so no text can overflow the stack here.
 */

/** The deepest nesting of arrays and objects a request's JSON may have. */
export const JSON_MAX_DEPTH = 64;

/**
 * Whether the JSON text nests arrays and objects deeper than `max` (brackets inside strings do not
 * count). One pass, no recursion; it does not validate the text (the parser does that afterwards).
 */
export function nestsDeeperThan(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
