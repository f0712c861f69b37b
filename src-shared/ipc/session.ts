/** The contract's session area: sign-in, two-factor, the profile and page tree, first-run setup. */
import { z } from 'zod';
import { profileSchema, pageSectionSchema, twoFactorSetupSchema } from '../api/auth';
import { channel } from './common';

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

export const sessionChannels = {
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
} as const;

export const sessionEvents = {
  /** The session ended (a 401): the token, two-factor flag, sections and user are cleared. */
  'session:expired': z.object({ rememberMe: z.string().nullable() }),
} as const;
