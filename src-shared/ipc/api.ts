/**
 * The contract's api area: the one generic channel to our REST API and its file transfers. Main adds the
 * host, the token and the headers (src-main/services/api-client.ts); the renderer reaches nothing else.
 */
import { z } from 'zod';
import { channel } from './common';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * A path on our own API, relative to the configured host: it starts with one `/`, carries no scheme,
 * host, query, fragment, `..` or backslash, so the renderer can reach our API and nothing else.
 */
export const apiPathSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^\/(?!\/)[A-Za-z0-9\-._~/%:@]*$/, 'must be a relative API path')
  .refine((p) => !p.split('/').some((seg) => seg === '..' || seg === '.'), 'must not contain dot segments');

const queryValueSchema = z.union([z.string().max(4000), z.number(), z.boolean()]);

export const apiRequestSchema = z
  .object({
    method: z.enum(HTTP_METHODS),
    path: apiPathSchema,
    query: z
      .record(z.string().max(64), z.union([queryValueSchema, z.array(queryValueSchema).max(100)]))
      .optional(),
    body: z.unknown().optional(),
  })
  .strict();
export type ApiRequest = z.infer<typeof apiRequestSchema>;

/** What the API answered: the status and the body (an envelope on success, a problem otherwise). */
export const apiResponseSchema = z.object({ status: z.number().int(), body: z.unknown() });
export type ApiResponse = z.infer<typeof apiResponseSchema>;

// ---------------------------------------------------------------- files (uploads and downloads of our API)

/**
 * The largest file that crosses IPC, in bytes. Files travel base64-encoded inside JSON (the web shell's
 * WebSocket carries JSON only), so the encoded string is at most 4/3 of this. The server has its own,
 * usually smaller, limits (a 413 says so).
 */
export const FILE_TRANSFER_MAX_BYTES = 40 * 1024 * 1024;
/** The longest base64 string a file of FILE_TRANSFER_MAX_BYTES becomes. */
export const BASE64_MAX_CHARS = Math.ceil(FILE_TRANSFER_MAX_BYTES / 3) * 4;

/** Standard base64 (no line breaks), at most FILE_TRANSFER_MAX_BYTES once decoded. */
export const base64Schema = z
  .string()
  .max(BASE64_MAX_CHARS, 'file too large')
  .refine((s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'must be base64');

/** A file's own name: no folders, no control characters (it only labels the multipart part). */
const fileNameSchema = z
  .string()
  .min(1)
  .max(255)
  // eslint-disable-next-line no-control-regex
  .refine((n) => !/[\\/\u0000-\u001f\u007f]/.test(n) && n !== '.' && n !== '..', 'must be a plain file name');

/** A MIME type such as `application/pdf` or `image/png`. */
const mimeSchema = z
  .string()
  .max(127)
  .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/, 'must be a MIME type');

/**
 * One file sent to our API as `multipart/form-data` (docs/api.md: uploads): the file under `field`, plus a few
 * plain text fields the endpoint may want (e.g. a description).
 */
export const apiUploadSchema = z
  .object({
    method: z.enum(['POST', 'PUT']).default('POST'),
    path: apiPathSchema,
    field: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.-]+$/),
    fileName: fileNameSchema,
    mime: mimeSchema,
    base64: base64Schema,
    fields: z
      .record(
        z
          .string()
          .max(64)
          .regex(/^[A-Za-z0-9_.-]+$/),
        z.string().max(4000),
      )
      .optional(),
  })
  .strict();
export type ApiUpload = z.input<typeof apiUploadSchema>;

/** A file to fetch from our API (e.g. an attachment's content), by its relative path. */
export const apiDownloadSchema = z
  .object({
    path: apiPathSchema,
    /** A few query parameters (e.g. a sticker's size), as `api:request` takes them. */
    query: z.record(z.string().max(64), queryValueSchema).optional(),
  })
  .strict();
export type ApiDownload = z.infer<typeof apiDownloadSchema>;

/**
 * What a download answered: on a 2xx the file (name from Content-Disposition, MIME type, size, base64);
 * otherwise the status and the problem body, as `api:request` answers them.
 */
export const apiDownloadResultSchema = z.object({
  status: z.number().int(),
  body: z.unknown(),
  file: z
    .object({
      fileName: z.string(),
      mime: z.string(),
      size: z.number().int().nonnegative(),
      base64: z.string(),
    })
    .optional(),
});
export type ApiDownloadResult = z.infer<typeof apiDownloadResultSchema>;

export const apiChannels = {
  /**
   * One call to our REST API (the specification's get/post/put/delete/patch helpers). Main adds the
   * host, the token and the headers; a 401 clears the session and pushes `session:expired`.
   */
  'api:request': channel(apiRequestSchema, apiResponseSchema),
  /**
   * One file to our API as multipart/form-data (base64 across IPC, capped at FILE_TRANSFER_MAX_BYTES);
   * answers like `api:request`. The renderer never touches the file system: it sends the bytes it read.
   */
  'api:upload': channel(apiUploadSchema, apiResponseSchema),
  /** One file from our API (GET), base64 across IPC; the renderer makes a Blob URL to show or save it. */
  'api:download': channel(apiDownloadSchema, apiDownloadResultSchema),
} as const;
