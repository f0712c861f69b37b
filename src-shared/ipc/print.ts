/**
 * The contract's print area: the desktop prints a registration sticker (or any page prepared for
 * printing) straight to a chosen printer, without a dialog (Electron's silent printing). The web shell has
 * no such printing: it answers no printers, and the renderer opens the browser's print dialog instead.
 */
import { z } from 'zod';
import { channel } from './common';

export const printersSchema = z.object({
  /** Whether this host can print without a dialog (the desktop). */
  silent: z.boolean(),
  printers: z.array(z.object({ name: z.string(), displayName: z.string(), isDefault: z.boolean() })),
});
export type Printers = z.infer<typeof printersSchema>;

/** A printer's name as the operating system gives it: plain text, no control characters. */
export const printerNameSchema = z
  .string()
  .min(1)
  .max(200)
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must be a printer name');

export const printRequestSchema = z
  .object({
    printer: printerNameSchema,
    /** The paper (label) size in millimetres; the page prepared for printing fills it. */
    widthMm: z.number().min(10).max(500),
    heightMm: z.number().min(10).max(500),
  })
  .strict();
export type PrintRequest = z.infer<typeof printRequestSchema>;

export const printResultSchema = z.object({
  printed: z.boolean(),
  /** Why not: no silent printing here, no such printer, or the system's words. */
  reason: z.enum(['unavailable', 'noPrinter', 'failed']).nullable(),
  detail: z.string().nullable(),
});
export type PrintResult = z.infer<typeof printResultSchema>;

export const printChannels = {
  /** The printers of this computer (none in the web shell). */
  'print:printers': channel(z.undefined(), printersSchema),
  /** Prints the window's page as prepared for printing to `printer`, without a dialog. */
  'print:silent': channel(printRequestSchema, printResultSchema),
} as const;
