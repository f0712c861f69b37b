/**
 * The IPC contract: every channel between the renderer and main is declared here once, with its zod
 * input and output. Main registers its handlers from this table (sender check, parse, call), preload
 * exposes one function per channel from it, the web shell bridges it over a WebSocket, and the
 * renderer's bridge type is derived from it. Adding a channel touches this file and one handler.
 */
import { z } from 'zod';
import { LOCALES } from '../locale';

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
} as const;

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
});
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

export const apiRequestSchema = z
  .object({
    method: z.enum(HTTP_METHODS),
    path: apiPathSchema,
    query: z.record(z.string().max(64), z.union([queryValueSchema, z.array(queryValueSchema).max(100)])).optional(),
    body: z.unknown().optional(),
  })
  .strict();
export type ApiRequest = z.infer<typeof apiRequestSchema>;

/** What the API answered: the status and the body (an envelope on success, a problem otherwise). */
export const apiResponseSchema = z.object({ status: z.number().int(), body: z.unknown() });
export type ApiResponse = z.infer<typeof apiResponseSchema>;

/** Declares one channel; the doc comment on its entry says what it does. */
function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

export const contract = {
  /** Name, version, host and API location of the running client. */
  'app:info': channel(z.undefined(), appInfoSchema),
  /** The client settings main keeps (the selected locale at least). */
  'settings:get': channel(z.undefined(), clientSettingsSchema),
  /** Changes some client settings and answers all of them; the choice survives a restart. */
  'settings:set': channel(clientSettingsSchema.partial().strict(), clientSettingsSchema),
  /**
   * One call to our REST API (the specification's get/post/put/delete/patch helpers). Main adds the
   * host, the token and the headers; a 401 clears the session and pushes `session:expired`.
   */
  'api:request': channel(apiRequestSchema, apiResponseSchema),
} as const;

export type Contract = typeof contract;
export type ChannelName = keyof Contract;
export type ChannelInput<C extends ChannelName> = z.input<Contract[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Contract[C]['output']>;
export const CHANNELS = Object.keys(contract) as ChannelName[];

/** Events main pushes to the renderer. */
export const events = {
  /** The session ended (a 401): the token, two-factor flag, sections and user are cleared. */
  'session:expired': z.object({ rememberMe: z.string().nullable() }),
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
export const EVENTS = Object.keys(events) as EventName[];

/** `app:info` → `appInfo`: the method name a channel has on `window.sijill`. */
export type MethodName<S extends string> = S extends `${infer A}:${infer B}`
  ? `${A}${Capitalize<MethodName<B>>}`
  : S extends `${infer A}-${infer B}`
    ? `${A}${Capitalize<MethodName<B>>}`
    : S;

export function methodName<C extends ChannelName>(channel: C): MethodName<C> {
  return channel.replace(/[:-]([a-z])/g, (_m, c: string) => c.toUpperCase()) as MethodName<C>;
}

type Args<C extends ChannelName> = undefined extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>];

/** The shape of `window.sijill`: one function per channel, plus event subscription. */
export type SijillBridge = {
  [C in ChannelName as MethodName<C>]: (...args: Args<C>) => Promise<IpcResult<ChannelOutput<C>>>;
} & {
  /** Subscribes to an event main pushes; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** The IPC channel name used on the wire for events. */
export const EVENT_WIRE_PREFIX = 'event:';
