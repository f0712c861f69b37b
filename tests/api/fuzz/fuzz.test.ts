/**
 * The fuzz suite: every route of the OpenAPI document, as an administrator and as a user without rights,
 * gets hostile values in every path parameter, query parameter, declared header and body field (wrong types, boundary
 * numbers, NUL, lone surrogates, bidi controls, 1 MB strings, built-in member names, odd ids and dates,
 * missing and extra fields, malformed JSON and multipart), then random ones from fast-check. Asserted on
 * every answer: no 5xx, no stack trace or SQL in the body, and — for every refused request (4xx) — no
 * change to the data, measured by row triggers on every table the request could have touched (the
 * bookkeeping tables of sessions, sign-in throttling and the audit log excepted).
 * The nesting family (arrays, objects, both, at the depth limit and past it, in a body, as one field, in
 * the `filters` query and in a multipart JSON field) goes to every JSON route signed in as either user and
 * not signed in: past the limit is a 400 `request.tooDeep` wherever the request is read at all.
 *
 * `FUZZ_SEED` replays a run; `FUZZ_RUNS` sets the random requests per route (default 12).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRole, makeUser, signIn, startHarness, type Harness } from '../support/harness';
import { organisation, letter, type Org } from '../support/correspondence';
import { operationsOf, sampleOf, type JsonSchema, type Operation } from './openapi';
import {
  HEADER_VALUES,
  HOSTILE,
  ODD_IDS,
  QUERY_VALUES,
  SORTS,
  anyJson,
  hostileFilters,
  nestingFamily,
} from './values';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

/** Tables that change by design while a request is refused (sessions seen, throttles, the audit trail). */
const BOOKKEEPING = new Set([
  'sessions',
  'login_throttle',
  'audit_log',
  'two_factor_challenges',
  'access_version',
]);

/** What an answer must never show: a stack frame, SQL, a driver or file path. */
const LEAK =
  /\n\s+at\s|node_modules|\bselect\s.+\bfrom\b|\binsert into\b|\bupdate\s.+\bset\b|relation "|syntax error|violates|drizzle|pglite|src-server|\.ts:\d+/i;

let h: Harness;
let org: Org;
let adminToken: string;
let admin: { username: string; password: string };
let nobody: { username: string; password: string };
let nobodyToken: string;
let nobodyRole: number;
let ops: Operation[];
let ids: Record<string, number>;
const failures: string[] = [];
let requests = 0;
/** The body of the last answer `send` received. */
let lastBody = '';

async function changes(): Promise<{ n: number; last: string }> {
  const [row] = await h.query<{ n: string | number; last: string }>('select n, last from fuzz_changes');
  return { n: Number(row!.n), last: row!.last };
}

/** Row triggers on every table but the bookkeeping ones; rolled back with the request's transaction. */
async function installChangeCounter(): Promise<void> {
  await h.query(`create table fuzz_changes (n bigint not null, last text not null default '')`);
  await h.query(`insert into fuzz_changes values (0, '')`);
  await h.query(`create function fuzz_bump() returns trigger language plpgsql as $$
    begin update fuzz_changes set n = n + 1, last = TG_TABLE_NAME || ' ' || TG_OP; return null; end $$`);
  const tables = await h.query<{ t: string }>(
    `select table_name as t from information_schema.tables
     where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'fuzz_changes'`,
  );
  for (const { t } of tables) {
    if (BOOKKEEPING.has(t) || t.startsWith('__drizzle')) continue;
    await h.query(
      `create trigger fuzz_bump after insert or update or delete on "${t}" for each row execute function fuzz_bump()`,
    );
  }
}

async function firstId(sqlText: string): Promise<number> {
  const [row] = await h.query<{ id: number | string | null }>(sqlText);
  return Number(row?.id ?? 1);
}

type Sent = {
  method: Operation['method'];
  url: string;
  token: string | null;
  payload?: string | Buffer;
  contentType?: string;
  /** The route's own headers (Idempotency-Key, If-Match). */
  headers?: Record<string, string>;
};

/** Sends one request and records what it broke, if anything. */
async function send(label: string, req: Sent): Promise<number> {
  requests += 1;
  const before = (await changes()).n;
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': 'en' };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  if (req.contentType) headers['content-type'] = req.contentType;
  Object.assign(headers, req.headers);
  let status: number;
  let body: string;
  try {
    const res = await h.app.inject({
      method: req.method,
      url: req.url,
      headers,
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
    });
    status = res.statusCode;
    body = res.body;
    lastBody = body;
  } catch (error) {
    failures.push(`${label}: the request threw ${(error as Error).message.slice(0, 200)}`);
    return 0;
  }
  if (status >= 500) failures.push(`${label}: ${status} ${body.slice(0, 160)}`);
  if (LEAK.test(body)) failures.push(`${label}: leaks internals: ${body.slice(0, 200)}`);
  if (status >= 400) {
    const after = await changes();
    if (after.n !== before) failures.push(`${label}: refused (${status}) but changed ${after.last}`);
  }
  return status;
}

function urlOf(op: Operation, params: Record<string, string>, query: Record<string, string>): string {
  let path = op.path;
  for (const [k, v] of Object.entries(params)) path = path.replace(`{${k}}`, v);
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

/** Existing ids for the base request of an operation, by its path. */
function baseParams(op: Operation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of op.pathParams) {
    const key = `${op.path.replace(/\{[^}]+\}.*$/, '')}:${name}`;
    out[name] = String(ids[key] ?? ids[name] ?? 1);
  }
  return out;
}

function refOf(name: string): number {
  return ids[name] ?? 1;
}

function baseBody(op: Operation): Record<string, unknown> | unknown {
  return op.body?.kind === 'json' ? sampleOf(op.body.schema, '', refOf) : undefined;
}

/** Body fields, one level deep (nested object fields as `a.b`). */
function bodyFields(schema: JsonSchema): string[] {
  const out: string[] = [];
  const props = schema.properties ?? schema.anyOf?.[0]?.properties ?? {};
  for (const [key, sub] of Object.entries(props)) {
    out.push(key);
    for (const inner of Object.keys(sub.properties ?? sub.items?.properties ?? {}))
      out.push(`${key}.${inner}`);
  }
  return out;
}

function withField(base: unknown, field: string, value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(base ?? {})) as Record<string, unknown>;
  const [a, b] = field.split('.') as [string, string | undefined];
  if (b === undefined) {
    if (value === undefined) delete copy[a];
    else copy[a] = value;
    return copy;
  }
  const inner = (copy[a] && typeof copy[a] === 'object' ? copy[a] : {}) as Record<string, unknown>;
  if (Array.isArray(inner)) {
    copy[a] = [{ [b]: value }];
  } else {
    inner[b] = value;
    copy[a] = inner;
  }
  return copy;
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a request nested too deep may answer: refused before it is read (401, 403), or read and refused
 * for its depth (400 `request.tooDeep`). At the limit it is read as any other request: never tooDeep.
 */
function expectDepthAnswer(label: string, status: number, past: boolean): void {
  let code: unknown;
  try {
    code = (JSON.parse(lastBody) as { code?: unknown }).code;
  } catch {
    code = undefined;
  }
  if (past && !(status === 401 || status === 403 || (status === 400 && code === 'request.tooDeep')))
    failures.push(
      `${label}: past the depth limit answered ${status} ${String(code)}, not 400 request.tooDeep`,
    );
  if (!past && code === 'request.tooDeep') failures.push(`${label}: at the depth limit refused as too deep`);
}

/** Where a nested value goes in a body, replaced in its JSON text. */
const NESTED_MARK = '__fuzz_nested__';

/** The nesting family as a whole JSON body and as the value of some top-level fields of it. */
async function sendNesting(name: string, op: Operation, base: (over?: Partial<Sent>) => Sent): Promise<void> {
  if (op.body?.kind !== 'json') return;
  const body = baseBody(op);
  const fields = Object.keys(op.body.schema.properties ?? op.body.schema.anyOf?.[0]?.properties ?? {});
  for (const n of nestingFamily()) {
    const whole = `${name} body ${n.label}`;
    expectDepthAnswer(whole, await send(whole, base({ payload: n.json })), n.past);
    // As a field: one level more than the value itself, so the value at the limit goes one under it.
    const inner = n.past ? n.json : n.json.slice(1, -1).replace(/^"a":/, '') || n.json;
    for (const field of [...fields.slice(0, 2), 'fuzzNested']) {
      const label = `${name} body ${field}=${n.label}`;
      const payload = json({ ...(body as object), [field]: NESTED_MARK }).replace(`"${NESTED_MARK}"`, inner);
      expectDepthAnswer(label, await send(label, base({ payload })), n.past);
    }
  }
}

/** The list item fields of a paged list operation (its filterable and sortable names). */
let itemFields: Map<string, string[]>;

async function fuzzOperation(op: Operation, token: string, who: string, thorough: boolean): Promise<void> {
  const name = `${who} ${op.method} ${op.path}`;
  const params = baseParams(op);
  const body = baseBody(op);
  const jsonBody = op.body?.kind === 'json';
  const base = (over: Partial<Sent> = {}): Sent => ({
    method: op.method,
    url: urlOf(op, params, {}),
    token,
    ...(jsonBody ? { payload: json(body), contentType: 'application/json' } : {}),
    ...over,
  });

  // Path parameters: odd ids are never ids.
  for (const p of op.pathParams) {
    for (const odd of ODD_IDS) {
      const status = await send(
        `${name} path ${p}=${odd.label}`,
        base({ url: urlOf(op, { ...params, [p]: odd.value }, {}) }),
      );
      if (!odd.canonical && status >= 200 && status < 300)
        failures.push(`${name} path ${p}=${odd.label}: a non-canonical id answered ${status}`);
    }
  }

  // Query parameters.
  const queryValues = thorough ? QUERY_VALUES : QUERY_VALUES.slice(0, 8);
  for (const q of op.query) {
    for (const v of queryValues) {
      await send(
        `${name} query ${q.name}=${v.label}`,
        base({ url: urlOf(op, params, { [q.name]: String(v.value) }) }),
      );
    }
    if (q.name === 'sort') {
      for (const s of SORTS) await send(`${name} sort=${s}`, base({ url: urlOf(op, params, { sort: s }) }));
    }
    if (q.name === 'filters' && thorough) {
      for (const f of hostileFilters(itemFields.get(op.path) ?? ['id'])) {
        await send(`${name} filters ${f.label}`, base({ url: urlOf(op, params, { filters: f.value }) }));
      }
    }
    if (q.name === 'filters') {
      for (const n of nestingFamily().filter((f) => f.json.length < 10_000)) {
        const label = `${name} filters ${n.label}`;
        const status = await send(label, base({ url: urlOf(op, params, { filters: n.json }) }));
        expectDepthAnswer(label, status, n.past);
      }
    }
  }

  // Declared headers: one at a time, alone (a required header missing is the base request).
  const headerValues = thorough ? HEADER_VALUES : HEADER_VALUES.filter((_, i) => i % 4 === 0);
  for (const header of op.headers) {
    for (const v of headerValues) {
      await send(
        `${name} header ${header.name}=${v.label}`,
        base({ headers: { [header.name]: String(v.value) } }),
      );
    }
  }

  // JSON bodies: every field, then the body as a whole.
  if (op.body?.kind === 'json') {
    const values = thorough ? HOSTILE : HOSTILE.filter((_, i) => i % 4 === 0);
    for (const field of bodyFields(op.body.schema)) {
      for (const v of values) {
        await send(
          `${name} body ${field}=${v.label}`,
          base({ payload: json(withField(body, field, v.value)) }),
        );
      }
    }
    const wholes: [string, Sent][] = [
      ['no body', base({ payload: undefined, contentType: undefined })],
      ['empty body', base({ payload: '' })],
      ['malformed JSON', base({ payload: '{"a":' })],
      ['JSON null', base({ payload: 'null' })],
      ['JSON array', base({ payload: '[]' })],
      ['JSON string', base({ payload: '"x"' })],
      ['extra field', base({ payload: json({ ...(body as object), fuzzExtra: 1 }) })],
      [
        '__proto__ field',
        base({ payload: `{"__proto__":{"isSystem":true},${json(body).slice(1)}`.replace(',}', '}') }),
      ],
      // Built-in member names as unknown fields (a `{ prototype }` value would stop at the JSON parser).
      ['constructor field', base({ payload: json({ ...(body as object), constructor: 1 }) })],
      ['toString field', base({ payload: json({ ...(body as object), toString: 'x' }) })],
      ['hasOwnProperty field', base({ payload: json({ ...(body as object), hasOwnProperty: null }) })],
      [
        'constructor.prototype field',
        base({ payload: json({ ...(body as object), constructor: { prototype: 1 } }) }),
      ],
      ['NUL in a JSON key', base({ payload: json({ ...(body as object), 'a\u0000': 1 }) })],
      ['2 MB body', base({ payload: json({ ...(body as object), x: 'y'.repeat(2_000_000) }) })],
      ['text/plain body', base({ contentType: 'text/plain' })],
    ];
    for (const [label, req] of wholes) await send(`${name} ${label}`, req);
    await sendNesting(name, op, base);
  }

  // Multipart uploads: malformed envelopes and more than one file; hostile values in their fields.
  if (op.body?.kind === 'multipart') {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const part = (b: string, n: string) =>
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${n}"\r\nContent-Type: application/pdf\r\n\r\n${pdf.toString('latin1')}\r\n`;
    const field = (b: string, n: string, value: string) =>
      `--${b}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${value}\r\n`;
    /** A plausible value of a field: a JSON field a manifest of one file, which the body's file part follows. */
    const plausible = (kind: string) =>
      kind === 'json' ? json({ files: [{ key: `fuzz-key-${requests}-abcdef` }] }) : 'x';
    const fields = op.body.parts.filter((p) => p.kind === 'json' || p.kind === 'text');
    const withFields = (over: Record<string, string>) =>
      fields.map((f) => field('b', f.name, over[f.name] ?? plausible(f.kind))).join('') +
      part('b', 'a.pdf') +
      '--b--\r\n';
    for (const f of fields) {
      const values: [string, string][] = [
        ...HOSTILE.filter((v) => v.value !== undefined).map((v): [string, string] => [
          v.label,
          typeof v.value === 'string' ? v.value : json(v.value),
        ]),
        ['JSON with a prototype key', '{"__proto__":{"isAdmin":true},"files":[]}'],
        ...nestingFamily().map((n): [string, string] => [`JSON ${n.label}`, n.json]),
        [
          'JSON array of a thousand files',
          json({ files: Array.from({ length: 1000 }, (_, i) => ({ key: `k${i}-abcdefgh` })) }),
        ],
        ['JSON with a NUL key', '{"files":[{"key":"abcdefgh\\u0000x"}]}'],
      ];
      const past = new Set(nestingFamily().flatMap((n) => (n.past ? [`JSON ${n.label}`] : [])));
      for (const [label, value] of values) {
        const status = await send(
          `${name} multipart field ${f.name}: ${label}`,
          base({ contentType: 'multipart/form-data; boundary=b', payload: withFields({ [f.name]: value }) }),
        );
        if (f.kind === 'json' && past.has(label))
          expectDepthAnswer(`${name} multipart field ${f.name}: ${label}`, status, true);
      }
      // The field missing, and sent twice.
      await send(
        `${name} multipart field ${f.name} missing`,
        base({
          contentType: 'multipart/form-data; boundary=b',
          payload:
            fields
              .filter((g) => g !== f)
              .map((g) => field('b', g.name, plausible(g.kind)))
              .join('') +
            part('b', 'a.pdf') +
            '--b--\r\n',
        }),
      );
      await send(
        `${name} multipart field ${f.name} twice`,
        base({
          contentType: 'multipart/form-data; boundary=b',
          payload: field('b', f.name, plausible(f.kind)) + withFields({}),
        }),
      );
    }
    const cases: [string, Sent][] = [
      [
        'multipart without boundary',
        base({ contentType: 'multipart/form-data', payload: part('b', 'a.pdf') + '--b--\r\n' }),
      ],
      [
        'multipart with the wrong boundary',
        base({ contentType: 'multipart/form-data; boundary=zz', payload: part('b', 'a.pdf') + '--b--\r\n' }),
      ],
      [
        'multipart truncated',
        base({ contentType: 'multipart/form-data; boundary=b', payload: part('b', 'a.pdf') }),
      ],
      ['multipart empty', base({ contentType: 'multipart/form-data; boundary=b', payload: '--b--\r\n' })],
      [
        'multipart two files',
        base({
          contentType: 'multipart/form-data; boundary=b',
          payload: part('b', 'a.pdf') + part('b', 'b.pdf') + '--b--\r\n',
        }),
      ],
      [
        'multipart NUL file name',
        base({
          contentType: 'multipart/form-data; boundary=b',
          payload: part('b', 'a\u0000.pdf') + '--b--\r\n',
        }),
      ],
      ['multipart as JSON', base({ contentType: 'application/json', payload: '{}' })],
      [
        'multipart boundary 200 chars',
        base({ contentType: `multipart/form-data; boundary=${'b'.repeat(200)}`, payload: '--x--' }),
      ],
    ];
    for (const [label, req] of cases) await send(`${name} ${label}`, req);
  }

  // Random values from fast-check in a random field or parameter.
  if (thorough) {
    const slots = [
      ...op.pathParams.map((p) => ({ kind: 'path' as const, name: p })),
      ...op.query.map((q) => ({ kind: 'query' as const, name: q.name })),
      ...op.headers.map((x) => ({ kind: 'header' as const, name: x.name })),
      ...(op.body?.kind === 'json'
        ? bodyFields(op.body.schema).map((f) => ({ kind: 'body' as const, name: f }))
        : []),
    ];
    if (slots.length === 0) return;
    await fc
      .assert(
        fc.asyncProperty(fc.constantFrom(...slots), anyJson, async (slot, value) => {
          const before = failures.length;
          const text = typeof value === 'string' ? value : json(value);
          const req =
            slot.kind === 'path'
              ? base({ url: urlOf(op, { ...params, [slot.name]: encodeURIComponent(text) }, {}) })
              : slot.kind === 'query'
                ? base({ url: urlOf(op, params, { [slot.name]: text }) })
                : slot.kind === 'header'
                  ? base({ headers: { [slot.name]: text } })
                  : base({ payload: json(withField(body, slot.name, value)) });
          await send(`${name} random ${slot.kind} ${slot.name}=${json(value).slice(0, 60)}`, req);
          return failures.length === before;
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
      .catch(() => {
        // The failure is already recorded with its request; fast-check's seed is SEED (FUZZ_SEED replays).
      });
  }
}

/**
 * Signs the fuzzing users in again when a request ended their session (log out, password change); when
 * the account itself was changed by an accepted request, a new one of the same role takes its place.
 */
async function freshTokens(): Promise<void> {
  const ok = async (token: string) =>
    (await h.app.inject({ url: '/auth/profile', headers: { authorization: `Bearer ${token}` } }))
      .statusCode === 200;
  const again = async (user: { username: string; password: string }, role: number | 'admin') => {
    try {
      return { user, token: await signIn(h, user) };
    } catch {
      const fresh = await makeUser(h, role);
      return { user: fresh, token: await signIn(h, fresh) };
    }
  };
  if (!(await ok(adminToken))) ({ user: admin, token: adminToken } = await again(admin, 'admin'));
  if (!(await ok(nobodyToken))) ({ user: nobody, token: nobodyToken } = await again(nobody, nobodyRole));
}

/** Every failure of a run, in test-results/fuzz-failures.txt (the assertion shows the first 60). */
function report(who: string): void {
  mkdirSync('test-results', { recursive: true });
  appendFileSync('test-results/fuzz-failures.txt', failures.map((f) => `[${who}] ${f}\n`).join(''));
}

beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  const adminUser = await makeUser(h, 'admin', { password: 'fuzz-admin-1' });
  admin = adminUser;
  adminToken = await signIn(h, adminUser);
  nobodyRole = await makeRole(h);
  nobody = await makeUser(h, nobodyRole, { password: 'fuzz-nobody-1' });
  nobodyToken = await signIn(h, nobody);
  const victimRole = await makeRole(h, { '/correspondence/inbox/incoming': ['view'] });
  const victim = await makeUser(h, victimRole);

  // Documents: a draft and a registered letter by the clerk, related, distributed and tasked.
  const post = async (url: string, token: string, body: unknown) => {
    const res = await h.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: json(body),
    });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const draft = await post('/correspondence/documents', adminToken, letter(org));
  const other = await post('/correspondence/documents', org.clerk.token, letter(org, { subject: 'ثان' }));
  await post(`/correspondence/documents/${other.id}/register`, org.clerk.token, undefined).catch(() => null);
  await post(`/correspondence/documents/${draft.id}/related`, adminToken, { relatedId: other.id }).catch(
    () => null,
  );

  ids = {
    '/auth/users/:id': victim.id,
    '/auth/roles/:id': victimRole,
    '/auth/pages/:id': await firstId('select max(id) as id from pages'),
    '/ec/jobs/:id': await firstId('select min(id) as id from jobs'),
    '/ec/departments/:id': org.deptB,
    '/ec/employees/:id': await firstId('select max(id) as id from employees'),
    '/ec/secretary-offices/:id': await firstId('select min(id) as id from secretary_offices'),
    '/correspondence/settings/mediums/:id': org.medium,
    '/correspondence/settings/priorities/:id': org.priority,
    '/correspondence/settings/security-levels/:id': org.levels.normal,
    '/correspondence/settings/codifications/:id': org.codIn,
    '/correspondence/settings/security-levels/clearance/:userId': victim.id,
    '/correspondence/documents/:id': Number(draft.id),
    relatedId: Number(other.id),
    taskId: await firstId('select min(id) as id from tasks'),
    attachmentId: 1,
    departmentId: org.deptA,
    recipientDepartmentId: org.deptA,
    senderDepartmentId: org.sender,
    parentId: org.deptA,
    archiveOfficeId: org.archive,
    roleId: victimRole,
    userId: victim.id,
    employeeId: org.memberA.employeeId ?? 1,
    secretaryEmployeeId: org.secretaryA.employeeId ?? 1,
    managerEmployeeId: org.managerA.employeeId ?? 1,
    codificationId: org.codIn,
    securityLevelId: org.levels.normal,
    priorityId: org.priority,
    mediumId: org.medium,
    jobId: await firstId('select min(id) as id from jobs'),
    pageId: await firstId('select max(id) as id from pages'),
  };
  const doc = await h.app.inject({ url: '/docs/json' });
  const parsed = doc.json();
  // FUZZ_ONLY narrows a run to the routes whose path contains it (replaying one route's failure).
  ops = operationsOf(parsed).filter((o) => !process.env.FUZZ_ONLY || o.path.includes(process.env.FUZZ_ONLY));
  // Deleting and signing out last, so they do not take the fixtures from the routes after them.
  const rank = (op: Operation) => (op.path === '/auth/logout' ? 2 : op.method === 'DELETE' ? 1 : 0);
  ops.sort((a, b) => rank(a) - rank(b));
  itemFields = new Map();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document, read loosely
  for (const [path, methods] of Object.entries(parsed.paths as Record<string, Record<string, any>>)) {
    const items =
      methods.get?.responses?.['200']?.content?.['application/json']?.schema?.properties?.data?.properties
        ?.items?.items?.properties;
    if (items) itemFields.set(path, Object.keys(items));
  }
  await installChangeCounter();
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('fuzzing every route of the OpenAPI document', () => {
  it('knows the routes it fuzzes', () => {
    expect(ops.length).toBeGreaterThan(process.env.FUZZ_ONLY ? 0 : 100);
    expect(ops.some((o) => o.body?.kind === 'multipart')).toBe(true);
    expect(ops.some((o) => o.headers.length > 0)).toBe(true);
  });

  it('as an administrator: no 5xx, no leak, nothing changed by a refused request', async () => {
    for (const op of ops) {
      await fuzzOperation(op, adminToken, 'admin', true);
      await freshTokens();
    }
    report('admin');
    console.log(`fuzz (admin): ${requests} requests, ${failures.length} failures, seed ${SEED}`);
    expect(failures.slice(0, 60)).toEqual([]);
    // A guard against a hang, not a speed limit: about ten minutes on two quiet cores, more on busy ones.
  }, 1_800_000);

  it('as a user without rights: no 5xx, no leak, nothing changed by a refused request', async () => {
    failures.length = 0;
    const start = requests;
    for (const op of ops) {
      await fuzzOperation(op, nobodyToken, 'nobody', false);
      await freshTokens();
    }
    report('no rights');
    console.log(`fuzz (no rights): ${requests - start} requests, ${failures.length} failures`);
    expect(failures.slice(0, 60)).toEqual([]);
  }, 1_800_000);

  it('not signed in: bodies, filters and multipart fields nested too deep are refused, never a 5xx', async () => {
    failures.length = 0;
    const start = requests;
    for (const op of ops) {
      const url = urlOf(op, baseParams(op), {});
      const base = (over: Partial<Sent> = {}): Sent => ({
        method: op.method,
        url,
        token: null,
        payload: json(baseBody(op)),
        contentType: 'application/json',
        ...over,
      });
      await sendNesting(`anonymous ${op.method} ${op.path}`, op, base);
      if (op.query.some((q) => q.name === 'filters'))
        for (const n of nestingFamily().filter((f) => f.json.length < 10_000)) {
          const label = `anonymous ${op.method} ${op.path} filters ${n.label}`;
          const status = await send(label, {
            method: op.method,
            url: urlOf(op, baseParams(op), { filters: n.json }),
            token: null,
          });
          expectDepthAnswer(label, status, n.past);
        }
    }
    report('not signed in');
    console.log(`fuzz (not signed in): ${requests - start} requests, ${failures.length} failures`);
    expect(requests - start).toBeGreaterThan(process.env.FUZZ_ONLY ? -1 : 100);
    expect(failures.slice(0, 60)).toEqual([]);
  }, 1_800_000);
});
