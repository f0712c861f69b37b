/** The contract's connection area: which server the client talks to, and whether it answers. */
import { z } from 'zod';
import { channel } from './common';

/**
 * An organisation server URL: http or https, a host, an optional port and path; no credentials, query
 * or fragment. (src-shared has no URL global in every runtime; LocalStore parses it again with URL.)
 */
export const serverUrlSchema = z
  .string()
  .max(2048)
  .regex(
    /^https?:\/\/(\[[0-9a-f:.]+\]|[\p{L}\p{N}.-]+)(:\d{1,5})?(\/[^\s?#@]*)?$/iu,
    'must be an http or https URL',
  );

/** Which server the client talks to. */
export const connectionSchema = z.object({
  /** The organisation's server, or null for this computer. */
  serverUrl: z.string().nullable(),
  /** The API base in effect now. */
  apiBaseUrl: z.string().nullable(),
  /** This computer's server is running (false when the desktop started connected: a restart starts it). */
  localAvailable: z.boolean(),
  /** Whether GET /health answered on the API base in effect (only checked by connection:set). */
  reachable: z.boolean().optional(),
});
export type Connection = z.infer<typeof connectionSchema>;

export const connectionChannels = {
  /** Which server the client talks to. */
  'connection:get': channel(z.undefined(), connectionSchema),
  /** Sets the organisation server URL (null = this computer); ends the current session; checks /health. */
  'connection:set': channel(z.object({ serverUrl: serverUrlSchema.nullable() }).strict(), connectionSchema),
} as const;

export const connectionEvents = {
  /**
   * The server went away or came back (any answer means reachable). Main notices the return by itself
   * (it asks /health while the server is away), so the screens never wait for "Try again".
   */
  'connection:changed': z.object({ online: z.boolean() }),
} as const;
