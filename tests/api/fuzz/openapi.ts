/**
 * The fuzz suite's view of the API: every operation of the OpenAPI document (`/docs/json`) with its path,
 * query and header parameters and its body, and a plausible value for any JSON schema (the base request each
 * mutation starts from, so a mutation reaches the code behind validation wherever it can).
 */

/** A JSON schema as @fastify/swagger publishes it (the subset the fuzzer reads). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template, e.g. `/ec/jobs/{id}`. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  /** Request headers the route declares (e.g. `idempotency-key`, `if-match`). */
  headers: { name: string; schema: JsonSchema }[];
  body:
    | { kind: 'json'; schema: JsonSchema }
    | { kind: 'multipart'; parts: { name: string; kind: 'file' | 'files' | 'json' | 'text' }[] }
    | null;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: JsonSchema }[];
        requestBody?: { content: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
}

/** A multipart body's parts as the document publishes them (a file, files, a JSON or a text field). */
function partsOf(schema: JsonSchema | undefined) {
  return Object.entries(schema?.properties ?? {}).map(([name, p]) => ({
    name,
    kind:
      p.format === 'binary'
        ? ('file' as const)
        : p.items?.format === 'binary'
          ? ('files' as const)
          : (p as { contentMediaType?: string }).contentMediaType === 'application/json'
            ? ('json' as const)
            : ('text' as const),
  }));
}

/** Every operation of the document, documentation routes excluded. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.startsWith('/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const upper = method.toUpperCase() as Operation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      const params = op.parameters ?? [];
      const json = op.requestBody?.content['application/json']?.schema;
      // Multipart routes are found by what the document says they take, whatever their path.
      const multipart = op.requestBody?.content['multipart/form-data'];
      out.push({
        method: upper,
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        headers: params
          .filter((p) => p.in === 'header')
          .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: json
          ? { kind: 'json', schema: json }
          : multipart
            ? { kind: 'multipart', parts: partsOf(multipart.schema) }
            : null,
      });
    }
  }
  return out;
}

function firstType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? schema.type[0];
  return schema.type;
}

/**
 * A plausible value for a schema: required properties filled, enums and defaults honoured, numbers and
 * strings inside their bounds. `ref` answers an existing id for a property named like `…Id`.
 */
export function sampleOf(schema: JsonSchema, name = '', ref: (name: string) => number = () => 1): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) {
    const option = alt.find((s) => firstType(s) !== 'null') ?? alt[0]!;
    return sampleOf(option, name, ref);
  }
  if (schema.allOf?.length) return sampleOf(schema.allOf[0]!, name, ref);
  switch (firstType(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        out[key] = sampleOf(schema.properties?.[key] ?? {}, key, ref);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, name, ref));
    case 'integer':
    case 'number': {
      if (/Id$|^id$/.test(name)) return ref(name);
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      return Math.max(min, Math.min(1, schema.maximum ?? 1));
    }
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'email') return `fuzz${Math.random().toString(36).slice(2, 8)}@example.com`;
      if (schema.format === 'date') return '2026-01-15';
      if (schema.format === 'date-time') return '2026-01-15T10:00:00.000Z';
      if (/password/i.test(name)) return 'fuzz-pass-1';
      if (/^username$|^login$/.test(name)) return `fuzz${Math.random().toString(36).slice(2, 8)}`;
      if (/^prefix$/.test(name)) return `FZ${Math.floor(Math.random() * 1000)}`;
      if (/^path$/.test(name)) return `/fuzz-${Math.random().toString(36).slice(2, 8)}`;
      if (/^icon$/.test(name)) return 'FileOutlined';
      if (/Date$/.test(name)) return '2026-01-15';
      const min = schema.minLength ?? 1;
      return 'فحص'.padEnd(Math.max(min, 4), 'x').slice(0, schema.maxLength ?? 64);
    }
    default:
      return null;
  }
}
