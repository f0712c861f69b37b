/** The contract's station area: the scanning station of this desk (src-main/station). */
import { z } from 'zod';
import { channel } from './common';

/**
 * The scanning station of this desk (station mode): on or off, the watched folders (absolute paths on
 * this computer or a mounted share; at most ten) and whether they are polled.
 */
export const stationConfigSchema = z
  .object({
    enabled: z.boolean(),
    folders: z
      .array(
        z
          .string()
          .trim()
          .min(1)
          .max(1000)
          // No control characters (NUL would cut the path short in the file system).
          .refine((path) => ![...path].some((c) => c.charCodeAt(0) < 0x20)),
      )
      .max(10),
    polling: z.boolean(),
  })
  .strict();
export type StationConfig = z.infer<typeof stationConfigSchema>;

/** Why a file was rejected or is stuck, in each language, and what the server said in each (null: no words in it). */
const stationReasonSchema = z.object({
  ar: z.string(),
  en: z.string(),
  detailAr: z.string().nullable(),
  detailEn: z.string().nullable(),
});
const stationFileSchema = z.object({
  id: z.number().int(),
  folder: z.string(),
  name: z.string(),
  size: z.number(),
  state: z.enum(['waiting', 'queued', 'uploading', 'moving', 'done', 'rejected', 'stuck']),
  attempts: z.number().int(),
  nextAt: z.number().nullable(),
  reason: stationReasonSchema.nullable(),
  documentId: z.number().int().nullable(),
  docNumber: z.string().nullable(),
  updatedAt: z.number(),
});
export type StationFileView = z.infer<typeof stationFileSchema>;

/** What the station panel shows: its settings, whether it runs, the counts, uploads in flight, problems. */
export const stationStatusSchema = z.object({
  config: stationConfigSchema,
  running: z.boolean(),
  paused: z.boolean(),
  ready: z.boolean(),
  folders: z.array(
    z.object({
      path: z.string(),
      /** `missing` (no such folder), `notFolder`, `notAbsolute`, or `unreadable` (with the system's words). */
      error: z.enum(['missing', 'notFolder', 'notAbsolute', 'unreadable']).nullable(),
      detail: z.string().nullable(),
    }),
  ),
  counts: z.record(z.string(), z.number().int()),
  active: z.array(z.object({ id: z.number().int(), name: z.string(), size: z.number(), sent: z.number() })),
  problems: z.array(stationFileSchema),
  recent: z.array(stationFileSchema),
});
export type StationStatusView = z.infer<typeof stationStatusSchema>;

export const stationChannels = {
  /** The scanning station's settings and state. */
  'station:status': channel(z.undefined(), stationStatusSchema),
  /** Saves the station's settings and (re)starts or stops it. */
  'station:configure': channel(stationConfigSchema, stationStatusSchema),
  /** Pauses uploads (files keep being watched and queued). */
  'station:pause': channel(z.undefined(), stationStatusSchema),
  'station:resume': channel(z.undefined(), stationStatusSchema),
  /** Tries a stuck file again now. */
  'station:retry': channel(z.object({ id: z.number().int().positive() }).strict(), stationStatusSchema),
  /**
   * The operating system's folder dialog, for a watched folder: the chosen folder, or null when the
   * dialog was cancelled or this host has none (the web shell: a browser cannot name a local folder).
   */
  'station:choose-folder': channel(z.undefined(), z.object({ path: z.string().nullable() })),
} as const;
