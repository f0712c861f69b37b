/**
 * The hostile values of the fuzz suite: what an attacker or a careless client sends in place of a field.
 * Each has a label, so a failure names the value without printing a megabyte.
 */
import fc from 'fast-check';

export interface Hostile {
  label: string;
  value: unknown;
}

const big = 'x'.repeat(1_048_576);

/** Values of the wrong type, boundary numbers, malformed and huge strings, built-in member names. */
export const HOSTILE: Hostile[] = [
  { label: 'undefined (missing)', value: undefined },
  { label: 'null', value: null },
  { label: 'true', value: true },
  { label: '0', value: 0 },
  { label: '-1', value: -1 },
  { label: 'int4 max', value: 2_147_483_647 },
  { label: 'int4 max + 1', value: 2_147_483_648 },
  { label: 'int4 min - 1', value: -2_147_483_649 },
  { label: '2^53', value: 2 ** 53 },
  { label: '1.5', value: 1.5 },
  { label: '1e21', value: 1e21 },
  { label: 'empty string', value: '' },
  { label: 'spaces', value: '   ' },
  { label: 'NUL', value: 'a\u0000b' },
  { label: 'lone high surrogate', value: 'a\uD800b' },
  { label: 'lone low surrogate', value: '\uDFFF' },
  { label: 'RLO bidi override', value: 'invoice\u202Efdp.exe' },
  { label: 'control characters', value: 'a\u0007\u001bb' },
  { label: 'newline', value: 'a\nb' },
  { label: '1 MB string', value: big },
  { label: '100 KB string', value: 'ب'.repeat(100_000) },
  { label: 'constructor', value: 'constructor' },
  { label: '__proto__', value: '__proto__' },
  { label: 'toString', value: 'toString' },
  { label: 'hasOwnProperty', value: 'hasOwnProperty' },
  { label: 'SQL', value: "1'; drop table users; --" },
  { label: 'hex id', value: '0x10' },
  { label: 'exponent id', value: '1e1' },
  { label: 'year 0', value: '0000-01-01' },
  { label: 'year 10000', value: '10000-01-01' },
  { label: '30 February', value: '2026-02-30' },
  { label: 'date "1"', value: '1' },
  { label: 'Arabic-Indic digits', value: '١٢٣' },
  { label: 'empty array', value: [] },
  { label: 'array of huge ids', value: [2_147_483_648, 1.5, -1] },
  { label: 'object', value: { a: { b: 1 } } },
  { label: 'object with __proto__ key', value: JSON.parse('{"__proto__": {"admin": true}}') },
];

/** Values for path parameters (ids): only canonical decimal ids are ids. */
export const ODD_IDS: { label: string; value: string; canonical: boolean }[] = [
  { label: '0', value: '0', canonical: false },
  { label: '-1', value: '-1', canonical: false },
  { label: 'hex', value: '0x10', canonical: false },
  { label: 'leading space', value: '%201', canonical: false },
  { label: 'exponent', value: '1e1', canonical: false },
  { label: 'leading zero', value: '01', canonical: false },
  { label: 'fraction', value: '1.5', canonical: false },
  { label: 'plus sign', value: '+1', canonical: false },
  { label: 'int4 max + 1', value: '2147483648', canonical: false },
  { label: 'twenty digits', value: '99999999999999999999', canonical: false },
  { label: 'constructor', value: 'constructor', canonical: false },
  { label: 'NUL', value: '1%00', canonical: false },
  { label: 'lone surrogate', value: '%ED%A0%80', canonical: false },
  { label: 'Arabic-Indic digit', value: encodeURIComponent('١'), canonical: false },
  { label: 'int4 max', value: '2147483647', canonical: true },
];

/** Query-string values (always text on the wire). */
export const QUERY_VALUES: Hostile[] = [
  ...HOSTILE.filter((h) => typeof h.value === 'string' && (h.value as string).length < 200_000),
  { label: '10 KB', value: 'q'.repeat(10_000) },
  { label: '-1', value: '-1' },
  { label: '2147483648', value: '2147483648' },
  { label: '1.5', value: '1.5' },
  { label: 'NaN', value: 'NaN' },
];

/**
 * Request header values (Idempotency-Key, If-Match): the string values above, and what a header may
 * carry — valid and near-valid keys and entity tags, lists, wildcards, Latin-1, a header of 64 KB.
 */
export const HEADER_VALUES: Hostile[] = [
  ...QUERY_VALUES,
  { label: 'valid key', value: 'fuzz-key:00000001' },
  { label: 'key of 7', value: 'fuzz-ke' },
  { label: 'key of 101', value: 'k'.repeat(101) },
  { label: 'key with a space', value: 'fuzz key 0001' },
  { label: 'version 1', value: '1' },
  { label: 'quoted version 1', value: '"1"' },
  { label: 'weak version 1', value: 'W/"1"' },
  { label: 'weak unquoted', value: 'W/1' },
  { label: 'lower-case weak', value: 'w/"1"' },
  { label: 'quoted int4 max + 1', value: '"2147483648"' },
  { label: 'ten nines', value: '9999999999' },
  { label: 'eleven digits', value: '99999999999' },
  { label: 'wildcard', value: '*' },
  { label: 'list of tags', value: '"1", "2"' },
  { label: 'unbalanced quote', value: '"1' },
  { label: 'Latin-1', value: '\u00e9t\u00e9-cl\u00e9-0001' },
  { label: 'tab inside', value: 'fuzz\tkey-0001' },
  { label: '64 KB', value: 'h'.repeat(65_536) },
];

/** `sort` values naming built-in members or nothing sortable. */
export const SORTS = [
  'constructor',
  '-toString',
  '__proto__',
  'valueOf',
  '-hasOwnProperty',
  'id;drop',
  '-',
  '',
];

/** `filters` documents: built-in member keys, out-of-range numbers, odd dates, NUL, bad shapes. */
export function hostileFilters(fields: string[]): { label: string; value: string }[] {
  const one = (field: string, value: unknown, matchMode = 'equals') =>
    JSON.stringify({ [field]: { operator: 'and', constraints: [{ value, matchMode }] } });
  const out: { label: string; value: string }[] = [
    { label: 'not JSON', value: '{' },
    { label: 'array', value: '[]' },
    { label: 'constructor key', value: one('constructor', 'x') },
    { label: 'toString key', value: one('toString', 'x') },
    {
      label: '__proto__ key',
      value: '{"__proto__":{"operator":"and","constraints":[{"value":"x","matchMode":"equals"}]}}',
    },
    { label: 'hasOwnProperty key', value: one('hasOwnProperty', 'x') },
    { label: 'bad match mode', value: one(fields[0] ?? 'id', 'x', 'regex') },
  ];
  for (const field of fields) {
    out.push(
      { label: `${field} int4 max + 1`, value: one(field, 2_147_483_648) },
      { label: `${field} 2^60 string`, value: one(field, '1152921504606846976') },
      { label: `${field} fraction`, value: one(field, 1.5, 'lt') },
      { label: `${field} exponent`, value: one(field, '1e3', 'gte') },
      { label: `${field} date "1"`, value: one(field, '1', 'dateIs') },
      { label: `${field} year 0`, value: one(field, '0000-01-01', 'dateBefore') },
      { label: `${field} NUL`, value: one(field, 'a\u0000b', 'contains') },
      { label: `${field} lone surrogate`, value: one(field, '\uD800', 'startsWith') },
      { label: `${field} boolean`, value: one(field, true, 'gt') },
    );
  }
  return out;
}

/** Random JSON of any shape, for the property-based part (fast-check). */
export const anyJson = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((b) => Number(b)),
  fc.constantFrom(...HOSTILE.map((h) => h.value)),
  fc.jsonValue({ maxDepth: 2 }),
);

/** The deepest nesting of arrays and objects a request's JSON may have (src-server/http/json-depth.ts). */
export const NESTING_LIMIT = 64;

/** JSON text of `depth` nested arrays, objects, or both in turn, around `core`. */
export function nested(kind: 'arrays' | 'objects' | 'mixed', depth: number, core = '1'): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const array = kind === 'arrays' || (kind === 'mixed' && i % 2 === 0);
    open += array ? '[' : '{"a":';
    close = (array ? ']' : '}') + close;
  }
  return open + core + close;
}

/**
 * The nesting family: arrays, objects and both in turn, at the limit (read as any other value) and just
 * past it (refused, 400 `request.tooDeep`), and far past it (the 100,000 levels that overflowed the stack
 * of the text guard), with brackets inside strings that must not count. `past` says which are past it.
 */
export function nestingFamily(): { label: string; json: string; past: boolean }[] {
  const out: { label: string; json: string; past: boolean }[] = [];
  for (const kind of ['arrays', 'objects', 'mixed'] as const) {
    out.push(
      { label: `${kind} nested to the limit`, json: nested(kind, NESTING_LIMIT), past: false },
      { label: `${kind} nested just past the limit`, json: nested(kind, NESTING_LIMIT + 1), past: true },
      { label: `${kind} nested 100,000 deep`, json: nested(kind, 100_000), past: true },
    );
  }
  out.push({
    label: 'brackets inside strings, at the limit',
    json: nested('objects', NESTING_LIMIT, JSON.stringify('['.repeat(500) + '{"x":'.repeat(500))),
    past: false,
  });
  return out;
}
