/**
 * Problem details (RFC 9457) as docs/api.md fixes them: `application/problem+json` with a localised
 * `detail` and per-field `errors` in the specification's wording. Services throw `HttpProblem`;
 * the error handler in app.ts turns every error, expected or not, into one of these.
 */
import type { FastifyError } from 'fastify';
import type { ZodError } from 'zod';
import type { Locale } from '../../src-shared/locale';
import type { Problem } from '../../src-shared/api/envelope';
import { translate } from '../i18n';

/** The problem kinds and their status codes (docs/api.md). */
export const PROBLEM_STATUS = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  unprocessable: 422,
  tooManyRequests: 429,
  internal: 500,
  serviceUnavailable: 503,
  insufficientStorage: 507,
} as const;
export type ProblemKind = keyof typeof PROBLEM_STATUS;

/** A field message before translation: an i18n key under `validation.` and its parameters. */
export type FieldMessage = { key: string; params?: Record<string, unknown> };

/** An expected failure: a kind, optionally a more specific detail key and per-field messages. */
export class HttpProblem extends Error {
  constructor(
    readonly kind: ProblemKind,
    readonly options: {
      /** i18n key of a more specific title than `errors.<kind>.title`. */
      titleKey?: string;
      /** i18n key of a more specific detail than `errors.<kind>.detail`. */
      detailKey?: string;
      params?: Record<string, unknown>;
      fields?: Record<string, FieldMessage[]>;
      /** A stable machine code the client may branch on (e.g. `auth.invalidCredentials`). */
      code?: string;
    } = {},
  ) {
    super(options.code ?? kind);
  }
}

/** Renders an HttpProblem in a language. */
export function renderProblem(problem: HttpProblem, locale: Locale): Problem {
  const { kind, options } = problem;
  const status = PROBLEM_STATUS[kind];
  const out: Problem = {
    type: `https://sijill.app/problems/${kind}`,
    title: translate(locale, options.titleKey ?? `errors.${kind}.title`, options.params),
    status,
    detail: translate(locale, options.detailKey ?? `errors.${kind}.detail`, options.params),
  };
  if (options.code) out.code = options.code;
  // A coded problem also gives the values its detail names (the client branches on the code, not the text).
  if (options.code && options.params) {
    out.params = Object.fromEntries(
      Object.entries(options.params).map(([k, v]) => [k, typeof v === 'number' ? v : String(v)]),
    );
  }
  if (options.fields) {
    out.errors = Object.fromEntries(
      Object.entries(options.fields).map(([field, messages]) => [
        field,
        messages.map((m) => translate(locale, m.key, m.params)),
      ]),
    );
  }
  return out;
}

type ValidationEntry = NonNullable<FastifyError['validation']>[number];

/** Maps one zod issue (as fastify-type-provider-zod reports it) to the specification's field wording. */
export function fieldMessageOf(entry: ValidationEntry): FieldMessage {
  const p = entry.params as Record<string, unknown>;
  const message = entry.message ?? '';
  if (message.startsWith('validation.')) return { key: message, params: p };
  switch (entry.keyword) {
    case 'invalid_type':
      if (/received undefined|received null/.test(message)) return { key: 'validation.required' };
      if (p.expected === 'number' || p.expected === 'int') return { key: 'validation.number' };
      if (p.expected === 'date') return { key: 'validation.date' };
      return { key: 'validation.invalid' };
    case 'too_small':
      if (p.origin === 'string') {
        return Number(p.minimum) <= 1
          ? { key: 'validation.required' }
          : { key: 'validation.minLength', params: { min: p.minimum } };
      }
      if (p.origin === 'array') return { key: 'validation.required' };
      return { key: 'validation.min', params: { min: p.minimum } };
    case 'too_big':
      if (p.origin === 'string' || p.origin === 'array')
        return { key: 'validation.maxLength', params: { max: p.maximum } };
      return { key: 'validation.max', params: { max: p.maximum } };
    case 'invalid_format':
      if (p.format === 'email') return { key: 'validation.email' };
      if (p.format === 'date' || p.format === 'datetime') return { key: 'validation.date' };
      return { key: 'validation.invalid' };
    case 'invalid_value':
      return { key: 'validation.choice' };
    default:
      return { key: 'validation.invalid' };
  }
}

/** Turns fastify's validation array into per-field messages, one entry per unknown key as well. */
export function fieldsOf(validation: ValidationEntry[], context?: string): Record<string, FieldMessage[]> {
  // Keyed by what the client sent (an unknown field may be named `constructor`): no prototype to collide with.
  const fields: Record<string, FieldMessage[]> = Object.create(null) as Record<string, FieldMessage[]>;
  const add = (field: string, m: FieldMessage) => (fields[field] ??= []).push(m);
  for (const entry of validation) {
    const base = entry.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (entry.keyword === 'unrecognized_keys') {
      const keys = (entry.params as { keys?: string[] }).keys ?? [];
      for (const key of keys) add(base ? `${base}.${key}` : key, { key: 'validation.unknownField' });
      continue;
    }
    add(base || context || '_', fieldMessageOf(entry));
  }
  return fields;
}

/**
 * Per-field messages of a value a route parses itself (a JSON field of a multipart request), named
 * under `field` (`manifest.files.0.key`), in the same wording as a schema's errors.
 */
export function fieldsOfZodError(error: ZodError, field: string): Record<string, FieldMessage[]> {
  return fieldsOf(
    error.issues.map(({ code, path, message, ...params }) => ({
      keyword: code,
      instancePath: `/${[field, ...path.map(String)].join('/')}`,
      schemaPath: '',
      message,
      params,
    })) as ValidationEntry[],
  );
}
