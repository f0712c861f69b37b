/** The contract's app area: facts about the running client and the settings main keeps for it. */
import { z } from 'zod';
import { LOCALES } from '../locale';
import { channel } from './common';
import { printerNameSchema } from './print';

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** How this client runs: inside Electron, or in a browser through the web shell. */
  host: z.enum(['electron', 'web']),
  platform: z.string(),
  /** Where the API is: the embedded server on this computer, or an organisation's server. */
  mode: z.enum(['standalone', 'connected']),
  apiBaseUrl: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const clientSettingsSchema = z.object({
  selectedLocale: z.enum(LOCALES),
  /**
   * The printer registration stickers go to without a dialog (the desktop): a printer belongs to the
   * desk, so it is kept on this computer, not with the account. Null: the print dialog is shown.
   */
  stickerPrinter: printerNameSchema.nullable(),
});
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

export const appChannels = {
  /** Name, version, host and API location of the running client. */
  'app:info': channel(z.undefined(), appInfoSchema),
  /** The client settings main keeps (the selected locale at least). */
  'settings:get': channel(z.undefined(), clientSettingsSchema),
  /** Changes some client settings and answers all of them; the choice survives a restart. */
  'settings:set': channel(clientSettingsSchema.partial().strict(), clientSettingsSchema),
} as const;
