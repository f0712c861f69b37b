/**
 * What every area of the IPC contract shares: the error a channel may answer with, and the helper that
 * declares a channel. The areas are composed in contract.ts.
 */
import { z } from 'zod';

/** An error crossing IPC: `code` is an i18n key the renderer translates; `detail` is already localised text. */
export const ipcErrorSchema = z.object({
  code: z.string(),
  detail: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type IpcError = z.infer<typeof ipcErrorSchema>;
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError };

/** Error codes main may answer with (keys under `ipc.*` in the common locale files). */
export const IPC_ERRORS = {
  unknownChannel: 'ipc.unknownChannel',
  invalidInput: 'ipc.invalidInput',
  forbiddenSender: 'ipc.forbiddenSender',
  internal: 'ipc.internal',
  serverUnreachable: 'ipc.serverUnreachable',
  /** A local draft asked for while nobody is signed in on this desk. */
  notSignedIn: 'ipc.notSignedIn',
  /** A local draft that is not there, or belongs to another user of this desk. */
  draftNotFound: 'ipc.draftNotFound',
} as const;

/** Declares one channel; the doc comment on its entry says what it does. */
export function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}
