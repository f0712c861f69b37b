/**
 * The one wrapper every IPC handler goes through, in Electron and in the web shell alike: it refuses
 * unknown channels and foreign senders, parses the input with the contract's zod schema (a bad argument
 * is never executed), calls the handler and wraps the answer as `{ ok: true, data } | { ok: false, error }`.
 */
import type { z } from 'zod';
import {
  contract,
  IPC_ERRORS,
  type ChannelName,
  type ChannelOutput,
  type IpcError,
  type IpcResult,
} from '../../src-shared/ipc/contract';

/** A handler gets the parsed input. */
export type Handlers = {
  [C in ChannelName]: (
    input: z.output<(typeof contract)[C]['input']>,
  ) => Promise<ChannelOutput<C>> | ChannelOutput<C>;
};

/** An error a handler throws to answer with a specific i18n code instead of `ipc.internal`. */
export class IpcFailure extends Error {
  constructor(
    readonly code: string,
    readonly detail?: string,
  ) {
    super(code);
  }
}

export type Dispatch = (
  channel: string,
  rawInput: unknown,
  senderAllowed: boolean,
) => Promise<IpcResult<unknown>>;

export interface DispatchOptions {
  /** Called with unexpected handler errors (they are never sent to the renderer as-is). */
  onError?: (channel: string, error: unknown) => void;
}

function isChannel(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(contract, name);
}

/** Builds the dispatcher over a full set of handlers. */
export function createDispatch(handlers: Handlers, options: DispatchOptions = {}): Dispatch {
  return async (channel, rawInput, senderAllowed) => {
    if (!senderAllowed) return fail({ code: IPC_ERRORS.forbiddenSender });
    if (!isChannel(channel)) return fail({ code: IPC_ERRORS.unknownChannel });
    const parsed = contract[channel].input.safeParse(rawInput);
    if (!parsed.success) {
      return fail({
        code: IPC_ERRORS.invalidInput,
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    }
    try {
      const handler = handlers[channel] as (input: unknown) => Promise<unknown> | unknown;
      const data = await handler(parsed.data);
      return { ok: true, data };
    } catch (error) {
      if (error instanceof IpcFailure)
        return fail({ code: error.code, ...(error.detail ? { detail: error.detail } : {}) });
      options.onError?.(channel, error);
      return fail({ code: IPC_ERRORS.internal });
    }
  };
}

function fail(error: IpcError): IpcResult<never> {
  return { ok: false, error };
}
