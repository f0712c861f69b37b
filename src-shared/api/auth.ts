/**
 * Request and response schemas of sign-in, two-factor, the profile and the page tree (docs/api.md, "Auth and
 * session"). The server validates with these; the client types its calls with them.
 */
import { LABEL_SIZES } from '../paper-codes';
import { z } from 'zod';
import { PERMISSIONS } from '../permissions';
import { LOCALES } from '../locale';
import { DATE_FORMATS, DIGIT_STYLES } from '../preferences';
import { endpoint } from './endpoint';
import { emailField, nameField, passwordField, text, usernameField } from './fields';

/** A one-time code: six TOTP digits or a recovery code (`xxxxx-xxxxx`). */
export const twoFactorCodeField = z.string().min(1).max(32);
/** An opaque token handed out by the server. */
export const tokenField = z.string().min(1).max(200);

// ---------------------------------------------------------------- setup (first administrator)

/** GET /setup: whether the server still has no user. */
export const setupStatusSchema = z.object({ needed: z.boolean() });
export type SetupStatus = z.infer<typeof setupStatusSchema>;

/** POST /setup: creates the first administrator (only while no user exists). */
export const setupRequestSchema = z
  .object({
    username: usernameField,
    email: emailField,
    password: passwordField,
    nameAr: nameField.optional(),
    nameEn: nameField.optional(),
  })
  .strict();
export type SetupRequest = z.infer<typeof setupRequestSchema>;

// ---------------------------------------------------------------- sign-in

/** POST /auth/login. `login` is an email or a username. */
export const loginRequestSchema = z
  .object({
    login: text(1, 254),
    password: passwordField,
    rememberMe: z.boolean().default(false),
  })
  .strict();
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The end of a sign-in: the session's access token (send as `Authorization: Bearer`). */
export const accessTokenSchema = z.object({
  accessToken: z.string(),
  /** When the session ends at the latest (absolute expiry), ISO 8601. */
  expiresAt: z.string(),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;

/** A second step follows: `required` (enter a code) or `setup` (enrol an authenticator first). */
export const twoFactorChallengeSchema = z.object({
  twoFactor: z.enum(['required', 'setup']),
  challengeToken: z.string(),
  /** Whether "skip for now" is offered (only when the role does not require two-factor). */
  canSkip: z.boolean(),
  /** When the challenge expires, ISO 8601. */
  expiresAt: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/** POST /auth/login and POST /setup answer one of these. */
export const loginResponseSchema = z.union([accessTokenSchema, twoFactorChallengeSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

// ---------------------------------------------------------------- two-factor

/** GET /auth/two-factor/setup: `?challengeToken=` during sign-in; nothing when signed in. */
export const twoFactorSetupQuerySchema = z.object({ challengeToken: tokenField.optional() }).strict();
export type TwoFactorSetupQuery = z.infer<typeof twoFactorSetupQuerySchema>;

/** The enrolment material: scan the QR code or type the secret. */
export const twoFactorSetupSchema = z.object({
  otpauthUri: z.string(),
  qrDataUrl: z.string(),
  secret: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** POST /auth/two-factor/verify: a TOTP code or a recovery code for the challenge. */
export const twoFactorVerifyRequestSchema = z
  .object({ challengeToken: tokenField, code: twoFactorCodeField })
  .strict();
export type TwoFactorVerifyRequest = z.infer<typeof twoFactorVerifyRequestSchema>;

/** The answer of verify: the access token and, when the code completed an enrolment, the recovery codes (shown once). */
export const twoFactorVerifyResponseSchema = accessTokenSchema.extend({
  recoveryCodes: z.array(z.string()).optional(),
});
export type TwoFactorVerifyResponse = z.infer<typeof twoFactorVerifyResponseSchema>;

/** POST /auth/two-factor/skip. */
export const twoFactorSkipRequestSchema = z.object({ challengeToken: tokenField }).strict();
export type TwoFactorSkipRequest = z.infer<typeof twoFactorSkipRequestSchema>;

/** POST /auth/two-factor/enable (signed in, after GET /auth/two-factor/setup). */
export const twoFactorEnableRequestSchema = z.object({ code: twoFactorCodeField }).strict();
export type TwoFactorEnableRequest = z.infer<typeof twoFactorEnableRequestSchema>;

/** Proof for disable / new recovery codes: a current code or the password. */
export const twoFactorProofSchema = z
  .object({ code: twoFactorCodeField.optional(), password: z.string().min(1).max(128).optional() })
  .strict()
  .refine((v) => v.code !== undefined || v.password !== undefined, {
    message: 'validation.required',
    path: ['code'],
  });
export type TwoFactorProof = z.infer<typeof twoFactorProofSchema>;

/** Ten fresh recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

// ---------------------------------------------------------------- profile

/** A role as other records reference it. */
export const roleRefSchema = z.object({ id: z.number().int(), nameAr: z.string(), nameEn: z.string() });
export type RoleRef = z.infer<typeof roleRefSchema>;

/**
 * A user's own settings, kept with their account on the server so they follow the user to any desk:
 * the date format, the digits of Arabic screens, and the home page (the page `/` leads to — one of the
 * pages of their tree; without one, or when it is no longer theirs, the first page of the first
 * section, as the specification's guard says), and how registration stickers are printed. Unset entries
 * take the defaults.
 */
export const preferencesSchema = z
  .object({
    dateFormat: z.enum(DATE_FORMATS).optional(),
    digits: z.enum(DIGIT_STYLES).optional(),
    homePage: z.string().min(1).max(200).nullable().optional(),
    /** The registration sticker's size (src-shared/paper-codes.ts); unset: 70 × 35 mm. */
    stickerSize: z.enum(LABEL_SIZES).optional(),
    /** Print the sticker as soon as a document is registered (else a button offers it). */
    stickerAfterRegister: z.boolean().optional(),
  })
  .strict();
export type Preferences = z.infer<typeof preferencesSchema>;

/** GET /auth/profile: the signed-in user. */
export const profileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  nameAr: z.string(),
  nameEn: z.string(),
  /** The linked employee (a later issue); null until linked. */
  employee: z.object({ id: z.number().int() }).nullable(),
  role: roleRefSchema,
  /** Two-factor is enabled for this user. */
  useTotp: z.boolean(),
  /** The user's role requires two-factor (so it cannot be disabled). */
  twoFactorRequired: z.boolean(),
  locale: z.enum(LOCALES),
  /** The user's own settings (a profile cached before they existed reads as none set). */
  preferences: preferencesSchema.default({}),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * PUT /auth/profile/preferences: the entries to change (others are kept); `homePage: null` goes back to
 * the first page. Answers the profile.
 */
export const preferencesRequestSchema = preferencesSchema;
export type PreferencesRequest = z.infer<typeof preferencesRequestSchema>;

/** PUT /auth/profile/password. */
export const changePasswordRequestSchema = z
  .object({
    oldPassword: z.string().min(1).max(128),
    password: passwordField,
    passwordConfirmation: z.string().min(1).max(128),
  })
  .strict()
  .refine((v) => v.password === v.passwordConfirmation, {
    message: 'validation.passwordMismatch',
    path: ['passwordConfirmation'],
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

// ---------------------------------------------------------------- page tree

/** A page (leaf) node. */
export const pageLeafSchema = z.object({
  id: z.number().int(),
  nameEn: z.string(),
  nameAr: z.string(),
  path: z.string(),
  icon: z.string(),
  order: z.number().int(),
  permissions: z.array(z.enum(PERMISSIONS)),
  children: z.array(z.never()),
});

/** A section node: the same fields, its visible pages as children. */
export const pageSectionSchema = pageLeafSchema.extend({ children: z.array(pageLeafSchema) });

/** GET /auth/user-pages-tree: `{ data: { pages } }`, only what the caller may see. */
export const userPagesTreeSchema = z.object({ pages: z.array(pageSectionSchema) });
export type PageLeaf = z.infer<typeof pageLeafSchema>;
export type PageSection = z.infer<typeof pageSectionSchema>;
export type UserPagesTree = z.infer<typeof userPagesTreeSchema>;

const tags = ['auth'];

/**
 * The first-run setup, sign-in, two-factor, the profile and the page tree. The sign-in and two-factor
 * routes, and the password change, are rate limited on the server (its configuration).
 */
export const authEndpoints = {
  setupStatus: endpoint({
    method: 'GET',
    path: '/setup',
    response: setupStatusSchema,
    access: 'public',
    tags,
    summary: 'Whether the first administrator is still to be made',
  }),
  setup: endpoint({
    method: 'POST',
    path: '/setup',
    body: setupRequestSchema,
    response: loginResponseSchema,
    status: 201,
    access: 'public',
    tags,
    summary: 'Create the first administrator (only while no user exists)',
    message: 'messages.setupDone',
  }),
  login: endpoint({
    method: 'POST',
    path: '/auth/login',
    body: loginRequestSchema,
    response: loginResponseSchema,
    access: 'public',
    tags,
    summary: 'Sign in with email or username and password',
    message: ({ data }) => ('accessToken' in data ? 'messages.signedIn' : 'messages.twoFactorNeeded'),
  }),
  twoFactorSetup: endpoint({
    method: 'GET',
    path: '/auth/two-factor/setup',
    query: twoFactorSetupQuerySchema,
    response: twoFactorSetupSchema,
    // Public at the hook: the handler accepts either a sign-in challenge or a bearer session.
    access: 'public',
    bearer: true,
    tags,
    summary: 'Enrolment material (otpauth URI, QR code, secret)',
  }),
  twoFactorVerify: endpoint({
    method: 'POST',
    path: '/auth/two-factor/verify',
    body: twoFactorVerifyRequestSchema,
    response: twoFactorVerifyResponseSchema,
    access: 'public',
    tags,
    summary: 'Complete sign-in with a TOTP or recovery code',
    message: 'messages.signedIn',
  }),
  twoFactorSkip: endpoint({
    method: 'POST',
    path: '/auth/two-factor/skip',
    body: twoFactorSkipRequestSchema,
    response: accessTokenSchema,
    access: 'public',
    tags,
    summary: 'Skip two-factor enrolment for now (where the role allows)',
    message: 'messages.signedIn',
  }),
  twoFactorEnable: endpoint({
    method: 'POST',
    path: '/auth/two-factor/enable',
    body: twoFactorEnableRequestSchema,
    response: recoveryCodesSchema,
    access: 'authenticated',
    tags,
    summary: 'Turn two-factor on with a first code',
    message: 'messages.twoFactorEnabled',
  }),
  twoFactorDisable: endpoint({
    method: 'POST',
    path: '/auth/two-factor/disable',
    body: twoFactorProofSchema,
    response: z.null(),
    access: 'authenticated',
    tags,
    summary: 'Turn two-factor off (with a code or the password)',
    message: 'messages.twoFactorDisabled',
  }),
  recoveryCodes: endpoint({
    method: 'POST',
    path: '/auth/two-factor/recovery-codes',
    body: twoFactorProofSchema,
    response: recoveryCodesSchema,
    access: 'authenticated',
    tags,
    summary: 'New recovery codes (the old ones stop working)',
    message: 'messages.recoveryCodesRenewed',
  }),
  logout: endpoint({
    method: 'POST',
    path: '/auth/logout',
    response: z.null(),
    access: 'authenticated',
    tags,
    summary: 'End this session',
    message: 'messages.signedOut',
  }),
  profile: endpoint({
    method: 'GET',
    path: '/auth/profile',
    response: profileSchema,
    access: 'authenticated',
    tags,
    summary: 'The signed-in user',
  }),
  preferences: endpoint({
    method: 'PUT',
    path: '/auth/profile/preferences',
    body: preferencesRequestSchema,
    response: profileSchema,
    access: 'authenticated',
    tags,
    summary: 'Change my own settings (date format, digits, home page); answers my profile',
    message: 'messages.preferencesSaved',
  }),
  changePassword: endpoint({
    method: 'PUT',
    path: '/auth/profile/password',
    body: changePasswordRequestSchema,
    response: accessTokenSchema,
    access: 'authenticated',
    tags,
    summary: 'Change my password (every session ends; a fresh token is returned)',
    message: 'messages.passwordChanged',
  }),
  userPagesTree: endpoint({
    method: 'GET',
    path: '/auth/user-pages-tree',
    response: userPagesTreeSchema,
    access: 'authenticated',
    tags,
    summary: 'The sections and pages I may see, with my permissions',
  }),
};
