/**
 * Idempotency keys bound to their request. A route that takes an `Idempotency-Key` (POST
 * /correspondence/documents, intake one file a request and in batches) records with what the key made a
 * hash of the request it came with; a later request with the key is a retry only when its hash is the
 * same. Another request under a used key is refused with 422 `idempotency.keyReused`, as payment APIs
 * do, instead of being answered with the first request's result while its own body or file is dropped.
 * A receipt recorded before hashes were (no hash) replays whatever comes with its key, as it always did.
 *
 * What is hashed: the operation, and the request in a canonical form — a JSON body as validated, its keys
 * sorted (so key order and spacing do not matter); a file by its SHA-256, its name and the number it is
 * filed on. Intake one file a request and in a batch are one operation (a file of a batch has its own
 * key, hashed as the single route hashes it), so a file first sent alone and retried in a batch replays.
 */
import { createHash } from 'node:crypto';
import { HttpProblem } from './problem';

/**
 * JSON text with object keys sorted at every level (arrays keep their order; `undefined` fields are left
 * out, as JSON.stringify does). Bodies reach it validated and bounded in depth (http/json-depth.ts).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const fields = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${fields.join(',')}}`;
}

/** The hash recorded with a key: SHA-256 (hex) of the operation and the request's canonical form. */
export function requestHash(operation: string, request: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(request)}`)
    .digest('hex');
}

/** The hash of POST /correspondence/documents: its validated body. */
export const documentRequestHash = (body: unknown) => requestHash('POST /correspondence/documents', body);

/** The hash of one file of intake (single or batch): its content, its name, the number it is filed on. */
export const intakeRequestHash = (file: { sha256: string; fileName: string; number: string | null }) =>
  requestHash('intake', { sha256: file.sha256, fileName: file.fileName, number: file.number });

/**
 * Whether a request may be answered with what a key's receipt says: always for a receipt without a hash
 * (recorded before hashes were), else only for the same request.
 */
export function sameRequest(recorded: string | null | undefined, hash: string): boolean {
  return recorded === null || recorded === undefined || recorded === hash;
}

/** The 422 for a used key sent with another request. */
export function keyReused(): HttpProblem {
  return new HttpProblem('unprocessable', {
    code: 'idempotency.keyReused',
    detailKey: 'idempotency.keyReused',
  });
}
