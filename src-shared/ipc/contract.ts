/**
 * The IPC contract: every channel between the renderer and main is declared here once, with its zod
 * input and output. Main registers its handlers from this table (sender check, parse, call), preload
 * exposes one function per channel from it, the web shell bridges it over a WebSocket, and the
 * renderer's bridge type is derived from it. Adding a channel touches this file and one handler.
 */
import { z } from 'zod';
import { LOCALES } from '../locale';
import { profileSchema, pageSectionSchema, twoFactorSetupSchema } from '../api/auth';
import { DIRECTIONS, createDocumentRequestSchema } from '../api/correspondence';
import type { ChannelNameList, EventNameList, MethodName } from './names';

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

/**
 * Local drafts (issue 14): the fields of a draft form as the server's create request takes them, every
 * one optional while it is being written (the server checks what it requires when it is sent).
 */
export const localDraftFieldsSchema = createDocumentRequestSchema
  .omit({ direction: true, register: true })
  .partial()
  .strict();
export type LocalDraftFields = z.infer<typeof localDraftFieldsSchema>;

export const LOCAL_DRAFT_STATES = ['pending', 'synced', 'conflict', 'failed'] as const;
const draftIdSchema = z.string().uuid();

/** One local draft as lists show it. */
export const localDraftSummarySchema = z.object({
  id: z.string(),
  direction: z.enum(DIRECTIONS),
  subject: z.string(),
  /** pending (waits to be sent), synced (the server has it), conflict (changed on both sides), failed. */
  state: z.enum(LOCAL_DRAFT_STATES),
  /** Changed on this desk since it was last sent. */
  dirty: z.boolean(),
  serverId: z.number().int().nullable(),
  serverVersion: z.number().int().nullable(),
  files: z.number().int(),
  /** Why it could not be sent (the server's words), when failed. */
  error: z.string().nullable(),
  /** False when its content cannot be opened (sealed with a key this desk no longer has). */
  readable: z.boolean(),
  updatedAt: z.string(),
});
export type LocalDraftSummary = z.infer<typeof localDraftSummarySchema>;

export const localDraftCountsSchema = z.object({
  waiting: z.number().int(),
  conflicts: z.number().int(),
  failed: z.number().int(),
});
export type LocalDraftCounts = z.infer<typeof localDraftCountsSchema>;

export const localDraftListSchema = z.object({
  drafts: z.array(localDraftSummarySchema),
  counts: localDraftCountsSchema,
});
export type LocalDraftList = z.infer<typeof localDraftListSchema>;

/** One local draft whole: its fields, its files, and in a conflict the server's version beside it. */
export const localDraftDetailSchema = localDraftSummarySchema.extend({
  fields: z.record(z.string(), z.unknown()),
  fileList: z.array(
    z.object({ id: z.string(), name: z.string(), size: z.number().int(), sha256: z.string() }),
  ),
  /** The document as the server has it now (a conflict), for the clerk to compare and choose. */
  theirs: z.record(z.string(), z.unknown()).nullable(),
});
export type LocalDraftDetail = z.infer<typeof localDraftDetailSchema>;

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

export const clientSettingsSchema = z.object({
  selectedLocale: z.enum(LOCALES),
});
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

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
export const apiDownloadSchema = z.object({ path: apiPathSchema }).strict();
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

// ---------------------------------------------------------------- session (sign-in, two-factor, profile, page tree)

/** The server said no (a 4xx/5xx answer): its status, its localised `detail` and its per-field messages. */
export const rejectedSchema = z.object({
  result: z.literal('rejected'),
  status: z.number().int(),
  detail: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type Rejected = z.infer<typeof rejectedSchema>;

/** The second step of a sign-in: enter a code (`required`) or enrol an authenticator first (`setup`). */
export const twoFactorStepSchema = z.object({ mode: z.enum(['required', 'setup']), canSkip: z.boolean() });
export type TwoFactorStep = z.infer<typeof twoFactorStepSchema>;

/** What a sign-in step (login, setup, verify, skip) ended with. The tokens stay in main. */
export const signInResultSchema = z.discriminatedUnion('result', [
  /** Signed in; enrolling two-factor during sign-in also answers the recovery codes, to show once. */
  z.object({ result: z.literal('signedIn'), recoveryCodes: z.array(z.string()).optional() }),
  z.object({ result: z.literal('twoFactor') }).extend(twoFactorStepSchema.shape),
  rejectedSchema,
]);
export type SignInResult = z.infer<typeof signInResultSchema>;

/**
 * The client-side session as main keeps it (the specification's storage keys, without the token):
 * signed in or not, a pending two-factor step (the `useTotp` flag), remember-me as the stored string,
 * the cached profile (`user`) and page tree (`sections`), and whether the server was unreachable lately.
 */
export const sessionStateSchema = z.object({
  signedIn: z.boolean(),
  /** The `useTotp` flag: a sign-in waits for its second step (no access token yet). */
  twoFactorPending: z.boolean(),
  twoFactor: twoFactorStepSchema.nullable(),
  /** The stored remember-me flag, `'true'` or `'false'` (the 401 rule compares with the string), or null. */
  rememberMe: z.string().nullable(),
  user: profileSchema.nullable(),
  sections: z.array(pageSectionSchema).nullable(),
  /** The last call to the server found it unreachable: what is shown comes from the cache. */
  offline: z.boolean(),
});
export type SessionState = z.infer<typeof sessionStateSchema>;

export const loginInputSchema = z
  .object({
    login: z.string().min(1).max(254),
    password: z.string().min(1).max(128),
    rememberMe: z.boolean(),
  })
  .strict();

export const setupInputSchema = z
  .object({
    username: z.string().min(1).max(64),
    email: z.string().min(1).max(254),
    password: z.string().min(1).max(128),
    nameAr: z.string().max(200).optional(),
    nameEn: z.string().max(200).optional(),
  })
  .strict();

/** The page tree, fresh from the server or (offline) the cached copy. */
export const pagesTreeResultSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('ok'), sections: z.array(pageSectionSchema), offline: z.boolean() }),
  rejectedSchema,
]);
/** The profile, fresh from the server or (offline) the cached copy. */
export const profileResultSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('ok'), user: profileSchema, offline: z.boolean() }),
  rejectedSchema,
]);
export const twoFactorSetupResultSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('ok') }).extend(twoFactorSetupSchema.shape),
  rejectedSchema,
]);

/** Changing one's own password: the server ends every session and answers a fresh token, which main keeps. */
export const changePasswordInputSchema = z
  .object({
    oldPassword: z.string().min(1).max(128),
    password: z.string().min(1).max(128),
    passwordConfirmation: z.string().min(1).max(128),
  })
  .strict();
export const changePasswordResultSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('ok'), returnMessage: z.string() }),
  rejectedSchema,
]);

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
  /**
   * One file to our API as multipart/form-data (base64 across IPC, capped at FILE_TRANSFER_MAX_BYTES);
   * answers like `api:request`. The renderer never touches the file system: it sends the bytes it read.
   */
  'api:upload': channel(apiUploadSchema, apiResponseSchema),
  /** One file from our API (GET), base64 across IPC; the renderer makes a Blob URL to show or save it. */
  'api:download': channel(apiDownloadSchema, apiDownloadResultSchema),
  /** The session as main keeps it; no call to the server. */
  'session:state': channel(z.undefined(), sessionStateSchema),
  /** POST /auth/login; keeps the token (or the two-factor challenge) in main and `rememberMe` in LocalStore. */
  'session:login': channel(loginInputSchema, signInResultSchema),
  /** GET /auth/two-factor/setup with the pending challenge: the QR code, URI and secret to enrol during sign-in. */
  'session:two-factor-setup': channel(z.undefined(), twoFactorSetupResultSchema),
  /** POST /auth/two-factor/verify with the pending challenge and a TOTP or recovery code. */
  'session:two-factor-verify': channel(
    z.object({ code: z.string().min(1).max(32) }).strict(),
    signInResultSchema,
  ),
  /** POST /auth/two-factor/skip with the pending challenge (only where the server offers it). */
  'session:two-factor-skip': channel(z.undefined(), signInResultSchema),
  /** POST /auth/logout, then clears the token, two-factor flag, sections and user (keeps remember-me, locale). */
  'session:logout': channel(z.undefined(), sessionStateSchema),
  /** GET /auth/profile, saved as `user`; the cached one (offline: true) when the server is unreachable. */
  'session:profile': channel(z.undefined(), profileResultSchema),
  /** GET /auth/user-pages-tree, saved as `sections`; the cached one (offline: true) when unreachable. */
  'session:pages-tree': channel(z.undefined(), pagesTreeResultSchema),
  /** PUT /auth/profile/password; the fresh token the server answers (every session ended) stays in main. */
  'session:change-password': channel(changePasswordInputSchema, changePasswordResultSchema),
  /** GET /setup: whether the server still has no user (first run). */
  'setup:status': channel(
    z.undefined(),
    z.discriminatedUnion('result', [
      z.object({ result: z.literal('ok'), needed: z.boolean() }),
      rejectedSchema,
    ]),
  ),
  /** POST /setup: creates the first administrator and signs in as them (answers like session:login). */
  'setup:create': channel(setupInputSchema, signInResultSchema),
  /** Which server the client talks to. */
  'connection:get': channel(z.undefined(), connectionSchema),
  /** Sets the organisation server URL (null = this computer); ends the current session; checks /health. */
  'connection:set': channel(z.object({ serverUrl: serverUrlSchema.nullable() }).strict(), connectionSchema),
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
  /** The signed-in user's local drafts on this desk (for the server in use), in the order they are sent. */
  'drafts:list': channel(z.undefined(), localDraftListSchema),
  'drafts:get': channel(z.object({ id: draftIdSchema }).strict(), localDraftDetailSchema),
  /**
   * Keeps a draft form's fields on this desk (a new draft without `id`). `serverId`/`serverVersion` name
   * the server draft being edited, the version the clerk started from (a change made elsewhere since is
   * a conflict, never overwritten).
   */
  'drafts:save': channel(
    z
      .object({
        id: draftIdSchema.optional(),
        direction: z.enum(DIRECTIONS),
        fields: localDraftFieldsSchema,
        serverId: z.number().int().positive().optional(),
        serverVersion: z.number().int().positive().optional(),
        /** The form gave up sending it itself (the server away): background sending may take it again. */
        release: z.boolean().optional(),
      })
      .strict(),
    localDraftSummarySchema,
  ),
  /**
   * The open form sends the draft itself now: background sending leaves it alone, and the answer names
   * the server draft it already became (to update rather than create a second).
   */
  'drafts:claim': channel(
    z.object({ id: draftIdSchema }).strict(),
    z.object({ serverId: z.number().int().nullable(), serverVersion: z.number().int().nullable() }),
  ),
  /** The form sent the draft itself (fields and files): the local copy is the server's now. */
  'drafts:settled': channel(
    z
      .object({
        id: draftIdSchema,
        serverId: z.number().int().positive(),
        serverVersion: z.number().int().positive(),
      })
      .strict(),
    localDraftSummarySchema,
  ),
  'drafts:remove-file': channel(
    z.object({ id: draftIdSchema, fileId: draftIdSchema }).strict(),
    localDraftDetailSchema,
  ),
  /** Deletes a local draft and its files from this desk (the server's copy, if any, stays). */
  'drafts:delete': channel(z.object({ id: draftIdSchema }).strict(), localDraftListSchema),
  /** Sends what waits now (the server must be reachable). */
  'drafts:sync': channel(z.undefined(), localDraftListSchema),
  /** A conflict settled: keep this desk's version (sent over the server's) or the server's. */
  'drafts:resolve': channel(
    z.object({ id: draftIdSchema, keep: z.enum(['mine', 'theirs']) }).strict(),
    localDraftListSchema,
  ),
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
  /**
   * The server went away or came back (any answer means reachable). Main notices the return by itself
   * (it asks /health while the server is away), so the screens never wait for "Try again".
   */
  'connection:changed': z.object({ online: z.boolean() }),
  /** Local drafts changed (saved, sent, in conflict): the counts the menu and the lists show. */
  'drafts:changed': localDraftCountsSchema,
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
export const EVENTS = Object.keys(events) as EventName[];

export { methodName, type MethodName } from './names';

// The zod-free name lists (names.ts) must be exactly this contract's channels and events.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _channelNamesMatch: Same<ChannelNameList, ChannelName> = true;
const _eventNamesMatch: Same<EventNameList, EventName> = true;
void _channelNamesMatch;
void _eventNamesMatch;

type Args<C extends ChannelName> =
  undefined extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>];

/** The shape of `window.sijill`: one function per channel, plus event subscription. */
export type SijillBridge = {
  [C in ChannelName as MethodName<C>]: (...args: Args<C>) => Promise<IpcResult<ChannelOutput<C>>>;
} & {
  /** Subscribes to an event main pushes; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** The IPC channel name used on the wire for events. */
export const EVENT_WIRE_PREFIX = 'event:';
