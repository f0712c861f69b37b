/**
 * The rules of sign-in, sessions and two-factor: password check with per-account and per-address
 * lockout, the second step (TOTP, enrolment, recovery codes, skip-for-now), session lifetimes, the
 * profile, the caller's page tree, and the access check used by the enforcement hook.
 */
import QRCode from 'qrcode';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  preferencesSchema,
  type AccessToken,
  type LoginRequest,
  type LoginResponse,
  type PageSection,
  type PreferencesRequest,
  type Profile,
  type TwoFactorSetup,
  type UserPagesTree,
} from '../../../src-shared/api/auth';
import type { Envelope } from '../../../src-shared/api/envelope';
import type { Permission } from '../../../src-shared/permissions';
import { isPermission } from '../../../src-shared/permissions';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import type { Db } from '../../db/open';
import type { Authenticate, AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { PERSONAL_PAGES } from '../../db/page-tree';
import { hashToken, newRecoveryCodes, newToken, normaliseRecoveryCode } from '../../security/tokens';
import { matchStep, newTotpSecret, totpUri } from '../../security/totp';
import * as q from './queries';
import { notifySessionEnded } from '../../db/notices';

/** Where a request comes from (audit, sessions, throttling). */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/** The origin of a request. */
export function metaOf(request: FastifyRequest): RequestMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 500) : null };
}

/** A session is marked as seen at most once a minute (one write per minute per session, not per request). */
const TOUCH_AFTER_MS = 60_000;
/** Wrong codes a challenge survives. */
const CHALLENGE_MAX_ATTEMPTS = 5;
/** "Skip for now" holds this long before the enrolment offer comes back. */
const SKIP_OFFER_DAYS = 30;

/** Session lifetimes from the configuration, in seconds. */
function lifetimes(ctx: ServerContext, rememberMe: boolean) {
  const c = ctx.config;
  const absoluteSeconds = rememberMe ? c.SESSION_REMEMBER_DAYS * 86400 : c.SESSION_ABSOLUTE_HOURS * 3600;
  const idleSeconds = Math.min(
    absoluteSeconds,
    rememberMe ? c.SESSION_REMEMBER_IDLE_DAYS * 86400 : c.SESSION_IDLE_MINUTES * 60,
  );
  return { idleSeconds, absoluteSeconds };
}

/** Whether a role holding `stored` on a page (or the administrator role) has `permission` there. */
export function holds(
  permission: Permission,
  page: string,
  caller: { isSystem: boolean; roleActive: boolean },
  stored: readonly string[] | null,
): boolean {
  if (caller.isSystem) return true;
  if (permission === 'view' && PERSONAL_PAGES.includes(page)) return true;
  return caller.roleActive && !!stored?.includes(permission);
}

/** The enforcement hook's lookup: one query for session, user, role and page permissions. */
export function authenticator(ctx: ServerContext): Authenticate {
  return async (token, page) => {
    const row = await q.findCallerBySession(ctx.db, hashToken(token), page?.page ?? null);
    if (!row) return null;
    if (Date.now() - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      await q.touchSession(ctx.db, row.sessionId, lifetimes(ctx, row.rememberMe).idleSeconds);
    }
    const auth = authContextOf({
      sessionId: row.sessionId,
      accessVersion: row.accessVersion,
      userId: row.userId,
      username: row.username,
      email: row.email,
      nameAr: row.nameAr,
      nameEn: row.nameEn,
      employeeId: row.employeeId,
      locale: row.locale,
      preferences: row.preferences,
      totpEnabled: row.totpEnabled,
      roleId: row.roleId,
      roleAr: row.roleNameAr,
      roleEn: row.roleNameEn,
      isSystem: row.isSystem,
      roleActive: row.roleActive,
      requireTwoFactor: row.roleRequiresTwoFactor,
    });
    const permitted = page ? holds(page.permission, page.page, row, row.permissions) : true;
    return { auth, permitted };
  };
}

/** What an authenticated caller is made of: the session, the user and their role. */
export interface CallerFacts {
  sessionId: number;
  accessVersion: string | null;
  userId: number;
  username: string;
  email: string;
  nameAr: string;
  nameEn: string;
  employeeId: number | null;
  locale: string;
  /** The stored preferences (read as none set when absent or not as they should be). */
  preferences?: unknown;
  totpEnabled: boolean;
  roleId: number;
  roleAr: string;
  roleEn: string;
  isSystem: boolean;
  roleActive: boolean;
  requireTwoFactor: boolean;
}

/** The request's auth context (and the caller's profile) from the facts of a session lookup. */
export function authContextOf(f: CallerFacts): AuthContext {
  return {
    sessionId: f.sessionId,
    userId: f.userId,
    username: f.username,
    roleId: f.roleId,
    isSystem: f.isSystem,
    roleActive: f.roleActive,
    accessVersion: f.accessVersion,
    profile: {
      id: f.userId,
      username: f.username,
      email: f.email,
      nameAr: f.nameAr,
      nameEn: f.nameEn,
      employee: f.employeeId === null ? null : { id: f.employeeId },
      role: { id: f.roleId, nameAr: f.roleAr, nameEn: f.roleEn },
      useTotp: f.totpEnabled,
      twoFactorRequired: f.requireTwoFactor,
      locale: f.locale === 'en' ? 'en' : 'ar',
      preferences: preferencesSchema.safeParse(f.preferences ?? {}).data ?? {},
    },
  };
}

// ---------------------------------------------------------------- accounts (for other modules)

/**
 * Creates an account in the caller's transaction and answers its id: the users screen (admin) and the
 * employee centre (directory) create accounts; their rules (who may grant which role) are theirs.
 */
export function insertAccount(tx: q.Tx, values: Parameters<typeof q.insertUser>[1]): Promise<number> {
  return q.insertUser(tx, values);
}

/** Ends every session of a user (deactivated, or given a new password by someone else). */
export function endSessionsOf(tx: q.Tx, userId: number): Promise<void> {
  return q.deleteUserSessions(tx, userId);
}

/** Gives a user a new password hash and ends every session they have. */
export async function replacePassword(tx: q.Tx, userId: number, passwordHash: string): Promise<void> {
  await q.setPasswordHash(tx, userId, passwordHash);
  await q.deleteUserSessions(tx, userId);
}

// ---------------------------------------------------------------- sessions

/** Starts a session and returns its bearer token (the token itself is not stored). */
export async function startSession(
  ctx: ServerContext,
  db: q.Tx,
  userId: number,
  rememberMe: boolean,
  meta: RequestMeta,
): Promise<AccessToken> {
  const token = newToken();
  const row = await q.insertSession(db, {
    tokenHash: hashToken(token),
    userId,
    rememberMe,
    ...lifetimes(ctx, rememberMe),
    ...meta,
  });
  await q.markSignedIn(db, userId);
  return { accessToken: token, expiresAt: row.absoluteExpiresAt.toISOString() };
}

/** Ends the caller's session. */
export async function logout(ctx: ServerContext, caller: AuthContext, meta: RequestMeta): Promise<void> {
  await q.deleteSession(ctx.db, caller.sessionId);
  await notifySessionEnded(ctx.db, caller.sessionId);
  await recordAudit(ctx.db, {
    action: 'auth.logout',
    actorId: caller.userId,
    actorUsername: caller.username,
    ip: meta.ip,
  });
}

// ---------------------------------------------------------------- sign-in

const invalidCredentials = () =>
  new HttpProblem('unauthorized', {
    titleKey: 'auth.invalidCredentials.title',
    detailKey: 'auth.invalidCredentials.detail',
    code: 'auth.invalidCredentials',
  });
const locked = (until: Date) =>
  new HttpProblem('tooManyRequests', {
    detailKey: 'auth.locked',
    params: { minutes: Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60000)) },
    code: 'auth.locked',
  });
const invalidCode = () =>
  new HttpProblem('badRequest', {
    titleKey: 'auth.invalidCode.title',
    detailKey: 'auth.invalidCode.detail',
    code: 'auth.invalidCode',
    fields: { code: [{ key: 'auth.invalidCode.detail' }] },
  });
const challengeExpired = () =>
  new HttpProblem('unauthorized', { detailKey: 'auth.challengeExpired', code: 'auth.challengeExpired' });

/** Decides what follows a correct password: a session, or a two-factor challenge. */
async function afterPassword(
  ctx: ServerContext,
  user: q.UserWithRole,
  rememberMe: boolean,
  meta: RequestMeta,
  method: string,
): Promise<LoginResponse> {
  let purpose: 'required' | 'setup' | null = null;
  let canSkip = false;
  if (user.totpEnabled) purpose = 'required';
  else if (user.roleRequiresTwoFactor) purpose = 'setup';
  else if (
    !user.twoFactorSkippedAt ||
    Date.now() - user.twoFactorSkippedAt.getTime() > SKIP_OFFER_DAYS * 86400_000
  ) {
    purpose = 'setup';
    canSkip = true;
  }
  if (purpose === null) {
    return ctx.db.transaction(async (tx) => {
      const token = await startSession(ctx, tx, user.id, rememberMe, meta);
      await recordAudit(tx, {
        action: 'auth.login.success',
        actorId: user.id,
        actorUsername: user.username,
        ip: meta.ip,
        details: { method },
      });
      return token;
    });
  }
  const challengeToken = newToken();
  const row = await q.insertChallenge(ctx.db, {
    tokenHash: hashToken(challengeToken),
    userId: user.id,
    purpose,
    rememberMe,
    seconds: ctx.config.TWO_FACTOR_CHALLENGE_MINUTES * 60,
    ip: meta.ip,
  });
  return { twoFactor: purpose, challengeToken, canSkip, expiresAt: row.expiresAt.toISOString() };
}

/**
 * POST /auth/login. Unknown logins, wrong passwords and inactive accounts get the same answer after the
 * same work (a dummy hash). Failures count against the account — whichever of its names (username or
 * e-mail, any case) was typed — or, for a login that names no account, against that login, and against
 * the address alike.
 */
export async function signIn(
  ctx: ServerContext,
  input: LoginRequest,
  meta: RequestMeta,
): Promise<LoginResponse> {
  const login = input.login.trim();
  const user = await q.findUserByLogin(ctx.db, login);
  const accountKey = user ? `user:${user.id}` : `login:${login.normalize('NFKC').toLowerCase()}`;
  const ipKey = `ip:${meta.ip ?? 'unknown'}`;
  const until = await q.lockedUntil(ctx.db, [accountKey, ipKey]);
  if (until) {
    await recordAudit(ctx.db, {
      action: 'auth.login.locked',
      ip: meta.ip,
      details: { login: login.slice(0, 254) },
    });
    throw locked(until);
  }
  const ok = user
    ? await ctx.passwords.verify(user.passwordHash, input.password)
    : await ctx.passwords.verifyDummy(input.password);
  if (!user || !ok || !user.active) {
    const c = ctx.config;
    await q.recordFailure(
      ctx.db,
      accountKey,
      c.LOGIN_MAX_FAILURES_ACCOUNT,
      c.LOGIN_WINDOW_MINUTES * 60,
      c.LOGIN_LOCK_MINUTES * 60,
    );
    await q.recordFailure(
      ctx.db,
      ipKey,
      c.LOGIN_MAX_FAILURES_IP,
      c.LOGIN_WINDOW_MINUTES * 60,
      c.LOGIN_LOCK_MINUTES * 60,
    );
    await recordAudit(ctx.db, {
      action: 'auth.login.failure',
      actorId: user?.id ?? null,
      actorUsername: user?.username ?? null,
      ip: meta.ip,
      details: {
        login: login.slice(0, 254),
        reason: !user ? 'unknownLogin' : !ok ? 'wrongPassword' : 'inactive',
      },
    });
    throw invalidCredentials();
  }
  await q.clearThrottle(ctx.db, accountKey);
  return afterPassword(ctx, user, input.rememberMe, meta, 'password');
}

// ---------------------------------------------------------------- first administrator

/** Whether the server still has no user (GET /setup). */
export async function setupNeeded(ctx: ServerContext): Promise<boolean> {
  return (await q.countUsers(ctx.db)) === 0;
}

/**
 * POST /setup: creates the first administrator while no user exists (409 for ever after), then answers
 * like a sign-in. An advisory lock makes two concurrent calls create one administrator.
 */
export async function createFirstAdmin(
  ctx: ServerContext,
  input: {
    username: string;
    email: string;
    password: string;
    nameAr?: string | undefined;
    nameEn?: string | undefined;
  },
  meta: RequestMeta,
): Promise<LoginResponse> {
  const passwordHash = await ctx.passwords.hash(input.password);
  const userId = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sijill.setup'))`);
    if ((await q.countUsers(tx)) > 0)
      throw new HttpProblem('conflict', { detailKey: 'setup.alreadyDone', code: 'setup.alreadyDone' });
    const roleId = await q.systemRoleId(tx);
    const id = await q.insertUser(tx, {
      username: input.username,
      email: input.email,
      passwordHash,
      nameAr: input.nameAr ?? input.username,
      nameEn: input.nameEn ?? input.username,
      roleId,
      locale: 'ar',
      active: true,
    });
    await recordAudit(tx, {
      action: 'setup.admin',
      actorId: id,
      actorUsername: input.username,
      targetType: 'user',
      targetId: id,
      ip: meta.ip,
    });
    return id;
  });
  const user = await q.findUserById(ctx.db, userId);
  return afterPassword(ctx, user!, false, meta, 'setup');
}

// ---------------------------------------------------------------- two-factor

async function liveChallenge(ctx: ServerContext, challengeToken: string) {
  const challenge = await q.findLiveChallenge(ctx.db, hashToken(challengeToken));
  if (!challenge) throw challengeExpired();
  const user = await q.findUserById(ctx.db, challenge.userId);
  if (!user || !user.active) throw challengeExpired();
  return { challenge, user };
}

/** Builds the enrolment material and keeps the secret as the user's pending one. */
async function enrolmentFor(ctx: ServerContext, user: q.UserWithRole): Promise<TwoFactorSetup> {
  const secret = newTotpSecret();
  await q.setPendingSecret(ctx.db, user.id, secret);
  const otpauthUri = totpUri(secret, user.username);
  const qrDataUrl = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { otpauthUri, qrDataUrl, secret };
}

/** GET /auth/two-factor/setup, during sign-in (challenge of purpose `setup`) or signed in. */
export async function twoFactorSetup(
  ctx: ServerContext,
  by: { challengeToken: string } | { caller: AuthContext },
): Promise<TwoFactorSetup> {
  if ('challengeToken' in by) {
    const { challenge, user } = await liveChallenge(ctx, by.challengeToken);
    if (challenge.purpose !== 'setup')
      throw new HttpProblem('conflict', {
        detailKey: 'auth.twoFactorAlreadyEnabled',
        code: 'auth.twoFactorAlreadyEnabled',
      });
    return enrolmentFor(ctx, user);
  }
  const user = await q.findUserById(ctx.db, by.caller.userId);
  if (!user) throw new HttpProblem('unauthorized');
  if (user.totpEnabled)
    throw new HttpProblem('conflict', {
      detailKey: 'auth.twoFactorAlreadyEnabled',
      code: 'auth.twoFactorAlreadyEnabled',
    });
  return enrolmentFor(ctx, user);
}

/**
 * Checks a code against a secret, once per time step; with `allowRecovery`, a recovery code is tried
 * too. Answers how the proof was given, or null.
 */
async function checkCode(
  db: q.Tx,
  userId: number,
  secret: string | null,
  code: string,
  allowRecovery: boolean,
): Promise<'totp' | 'recovery' | null> {
  const trimmed = code.trim();
  if (secret && /^\d{6}$/.test(trimmed)) {
    const step = matchStep(secret, trimmed);
    if (step !== null && (await q.acceptTotpStep(db, userId, step))) return 'totp';
    return null;
  }
  if (allowRecovery && (await q.useRecoveryCode(db, userId, hashToken(normaliseRecoveryCode(trimmed)))))
    return 'recovery';
  return null;
}

/** New recovery codes for a user (old ones die); returns them in clear, once. */
async function renewCodes(db: q.Tx, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await q.replaceRecoveryCodes(
    db,
    userId,
    codes.map((c) => hashToken(c)),
  );
  return codes;
}

/**
 * POST /auth/two-factor/verify: a TOTP code (or, when enrolled, a recovery code) completes the sign-in.
 * At enrolment the first code turns two-factor on and the answer carries the recovery codes, once.
 */
export async function verifyChallenge(
  ctx: ServerContext,
  challengeToken: string,
  code: string,
  meta: RequestMeta,
): Promise<AccessToken & { recoveryCodes?: string[] }> {
  const { challenge, user } = await liveChallenge(ctx, challengeToken);
  const enrolling = challenge.purpose === 'setup';
  const secret = enrolling ? user.totpPendingSecret : user.totpSecret;
  if (enrolling && !secret)
    throw new HttpProblem('unprocessable', {
      detailKey: 'auth.twoFactorSetupFirst',
      code: 'auth.twoFactorSetupFirst',
    });
  const how = await checkCode(ctx.db, user.id, secret, code, !enrolling);
  if (!how) {
    await q.failChallenge(ctx.db, challenge.id, CHALLENGE_MAX_ATTEMPTS);
    await recordAudit(ctx.db, {
      action: 'auth.twoFactor.challengeFailure',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
    });
    throw invalidCode();
  }
  return ctx.db.transaction(async (tx) => {
    if (!(await q.consumeChallenge(tx, challenge.id))) throw challengeExpired();
    let recoveryCodes: string[] | undefined;
    if (enrolling) {
      await q.enableTotp(tx, user.id, secret!);
      recoveryCodes = await renewCodes(tx, user.id);
      await recordAudit(tx, {
        action: 'auth.twoFactor.enrolled',
        actorId: user.id,
        actorUsername: user.username,
        ip: meta.ip,
      });
    }
    if (how === 'recovery')
      await recordAudit(tx, {
        action: 'auth.twoFactor.recoveryCodeUsed',
        actorId: user.id,
        actorUsername: user.username,
        ip: meta.ip,
      });
    const token = await startSession(ctx, tx, user.id, challenge.rememberMe, meta);
    await recordAudit(tx, {
      action: 'auth.login.success',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
      details: { method: how },
    });
    return recoveryCodes ? { ...token, recoveryCodes } : token;
  });
}

/** POST /auth/two-factor/skip: only for an enrolment offer whose role does not require two-factor. */
export async function skipChallenge(
  ctx: ServerContext,
  challengeToken: string,
  meta: RequestMeta,
): Promise<AccessToken> {
  const { challenge, user } = await liveChallenge(ctx, challengeToken);
  if (challenge.purpose !== 'setup' || user.roleRequiresTwoFactor || user.totpEnabled) {
    throw new HttpProblem('unprocessable', { detailKey: 'auth.skipRefused', code: 'auth.skipRefused' });
  }
  return ctx.db.transaction(async (tx) => {
    if (!(await q.consumeChallenge(tx, challenge.id))) throw challengeExpired();
    await q.setTwoFactorSkipped(tx, user.id);
    await recordAudit(tx, {
      action: 'auth.twoFactor.skipped',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
    });
    const token = await startSession(ctx, tx, user.id, challenge.rememberMe, meta);
    await recordAudit(tx, {
      action: 'auth.login.success',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
      details: { method: 'skip' },
    });
    return token;
  });
}

async function signedInUser(ctx: ServerContext, caller: AuthContext) {
  const user = await q.findUserById(ctx.db, caller.userId);
  if (!user) throw new HttpProblem('unauthorized');
  return user;
}

/** Proof for sensitive two-factor changes: a current code (or recovery code) or the password. */
async function requireProof(
  ctx: ServerContext,
  user: q.UserWithRole,
  proof: { code?: string | undefined; password?: string | undefined },
): Promise<void> {
  if (proof.code !== undefined) {
    if (!(await checkCode(ctx.db, user.id, user.totpSecret, proof.code, true))) throw invalidCode();
    return;
  }
  if (!(await ctx.passwords.verify(user.passwordHash, proof.password ?? ''))) {
    throw new HttpProblem('badRequest', {
      detailKey: 'auth.wrongPassword',
      fields: { password: [{ key: 'auth.wrongPassword' }] },
    });
  }
}

/** POST /auth/two-factor/enable: the first code of the pending secret turns two-factor on. */
export async function enableTwoFactor(
  ctx: ServerContext,
  caller: AuthContext,
  code: string,
  meta: RequestMeta,
): Promise<string[]> {
  const user = await signedInUser(ctx, caller);
  if (user.totpEnabled)
    throw new HttpProblem('conflict', {
      detailKey: 'auth.twoFactorAlreadyEnabled',
      code: 'auth.twoFactorAlreadyEnabled',
    });
  if (!user.totpPendingSecret)
    throw new HttpProblem('unprocessable', {
      detailKey: 'auth.twoFactorSetupFirst',
      code: 'auth.twoFactorSetupFirst',
    });
  if (!(await checkCode(ctx.db, user.id, user.totpPendingSecret, code, false))) throw invalidCode();
  return ctx.db.transaction(async (tx) => {
    await q.enableTotp(tx, user.id, user.totpPendingSecret!);
    const codes = await renewCodes(tx, user.id);
    await recordAudit(tx, {
      action: 'auth.twoFactor.enabled',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
    });
    return codes;
  });
}

/** POST /auth/two-factor/disable: refused where the role requires two-factor. */
export async function disableTwoFactor(
  ctx: ServerContext,
  caller: AuthContext,
  proof: { code?: string | undefined; password?: string | undefined },
  meta: RequestMeta,
): Promise<void> {
  const user = await signedInUser(ctx, caller);
  if (!user.totpEnabled)
    throw new HttpProblem('unprocessable', {
      detailKey: 'auth.twoFactorNotEnabled',
      code: 'auth.twoFactorNotEnabled',
    });
  if (user.roleRequiresTwoFactor)
    throw new HttpProblem('unprocessable', {
      detailKey: 'auth.twoFactorRequiredByRole',
      code: 'auth.twoFactorRequiredByRole',
    });
  await requireProof(ctx, user, proof);
  await ctx.db.transaction(async (tx) => {
    await q.disableTotp(tx, user.id);
    await recordAudit(tx, {
      action: 'auth.twoFactor.disabled',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
    });
  });
}

/** POST /auth/two-factor/recovery-codes: new codes, shown once; the old ones die. */
export async function renewRecoveryCodes(
  ctx: ServerContext,
  caller: AuthContext,
  proof: { code?: string | undefined; password?: string | undefined },
  meta: RequestMeta,
): Promise<string[]> {
  const user = await signedInUser(ctx, caller);
  if (!user.totpEnabled)
    throw new HttpProblem('unprocessable', {
      detailKey: 'auth.twoFactorNotEnabled',
      code: 'auth.twoFactorNotEnabled',
    });
  await requireProof(ctx, user, proof);
  return ctx.db.transaction(async (tx) => {
    const codes = await renewCodes(tx, user.id);
    await recordAudit(tx, {
      action: 'auth.twoFactor.recoveryCodesRenewed',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
    });
    return codes;
  });
}

// ---------------------------------------------------------------- profile

/**
 * PUT /auth/profile/preferences: the entries given replace the caller's own (the others are kept; null
 * removes one); a home page must be one of the pages of the caller's tree (a page, not a section), else
 * 400 on `homePage`. Answers the profile as it is now.
 */
export async function setPreferences(
  ctx: ServerContext,
  caller: AuthContext,
  input: PreferencesRequest,
): Promise<Profile> {
  if (input.homePage) {
    const tree = await pageTreeFor(ctx, caller);
    const page = tree.flatMap((section) => section.children).find((p) => p.path === input.homePage);
    if (!page) throw new HttpProblem('badRequest', { fields: { homePage: [{ key: 'validation.choice' }] } });
  }
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === null) unset.push(key);
    else if (value !== undefined) set[key] = value;
  }
  // Merged in one statement: two changes sent at once (two settings chosen quickly) both hold.
  const stored = await q.mergePreferences(ctx.db, caller.userId, set, unset);
  return { ...caller.profile, preferences: preferencesSchema.safeParse(stored).data ?? {} };
}

/** GET /auth/profile: read with the session by the access hook, so no further query. */
export function profileOf(caller: AuthContext): Profile {
  return caller.profile;
}

/**
 * PUT /auth/profile/password: with the old password. Every session of the user ends (this one too); the
 * answer carries a fresh token so the caller stays signed in on this device.
 */
export async function changeOwnPassword(
  ctx: ServerContext,
  caller: AuthContext,
  input: { oldPassword: string; password: string },
  meta: RequestMeta,
): Promise<AccessToken> {
  const user = await signedInUser(ctx, caller);
  if (!(await ctx.passwords.verify(user.passwordHash, input.oldPassword))) {
    throw new HttpProblem('badRequest', {
      detailKey: 'auth.wrongPassword',
      fields: { oldPassword: [{ key: 'auth.wrongPassword' }] },
    });
  }
  const hashed = await ctx.passwords.hash(input.password);
  return ctx.db.transaction(async (tx) => {
    await q.setPasswordHash(tx, user.id, hashed);
    await q.deleteUserSessions(tx, user.id);
    await recordAudit(tx, {
      action: 'auth.password.changed',
      actorId: user.id,
      actorUsername: user.username,
      ip: meta.ip,
    });
    return startSession(ctx, tx, user.id, false, meta);
  });
}

// ---------------------------------------------------------------- page tree

/** The sections and pages a role may see, with its permissions on each (sections: when any child is visible). */
export async function pageTreeFor(
  ctx: ServerContext,
  caller: { roleId: number; isSystem: boolean; roleActive: boolean },
): Promise<PageSection[]> {
  const rows = await q.pagesWithRolePermissions(ctx.db, caller.roleId);
  const roleActive = caller.roleActive;
  const sections = rows.filter((r) => r.parentId === null);
  const out: PageSection[] = [];
  for (const section of sections) {
    const children = rows
      .filter((r) => r.parentId === section.id)
      .map((p) => {
        const available = p.availablePermissions.filter(isPermission);
        const granted = caller.isSystem
          ? available
          : available.filter((perm) => holds(perm, p.path, { isSystem: false, roleActive }, p.permissions));
        return { p, granted };
      })
      .filter(({ granted }) => granted.includes('view'))
      .map(({ p, granted }) => ({
        id: p.id,
        nameEn: p.nameEn,
        nameAr: p.nameAr,
        path: p.path,
        icon: p.icon,
        order: p.order,
        permissions: granted,
        children: [] as never[],
      }));
    if (children.length === 0) continue;
    out.push({
      id: section.id,
      nameEn: section.nameEn,
      nameAr: section.nameAr,
      path: section.path,
      icon: section.icon,
      order: section.order,
      permissions: ['view'],
      children,
    });
  }
  return out;
}

/**
 * Answers of GET /auth/user-pages-tree already serialised, by database and then by role (and the flags
 * the tree depends on), each with the access version it was built at. The tree depends only on these and
 * on the tables pages, role_page_permissions and roles, whose every change raises the version in the
 * database (migration 0005), so servers sharing a database never serve each other's stale trees.
 */
const treeCache = new WeakMap<Db, Map<string, { version: bigint; json: string }>>();
/** Roles are few; a bound in case they are not. */
const TREE_CACHE_MAX = 1000;

/**
 * GET /auth/user-pages-tree as JSON (`{ data: { pages } }`; a GET envelope has no message): the cached
 * answer when the access version read with the session is the one it was built at, else built and kept.
 * A tree built from rows newer than the version it is filed under is only ever rebuilt, never stale:
 * the rows are read after the version.
 */
export async function pageTreeJson(
  ctx: ServerContext,
  caller: { roleId: number; isSystem: boolean; roleActive: boolean; accessVersion: string | null },
): Promise<string> {
  const version = caller.accessVersion === null ? null : BigInt(caller.accessVersion);
  let byRole = treeCache.get(ctx.db);
  if (!byRole) {
    byRole = new Map();
    treeCache.set(ctx.db, byRole);
  }
  const key = `${caller.roleId}:${caller.isSystem ? 1 : 0}:${caller.roleActive ? 1 : 0}`;
  const hit = byRole.get(key);
  if (version !== null && hit?.version === version) return hit.json;
  const body: Envelope<UserPagesTree> = { data: { pages: await pageTreeFor(ctx, caller) } };
  const json = JSON.stringify(body);
  if (version !== null) {
    // Versions only grow: a slower request must not replace a newer tree with an older one.
    const current = byRole.get(key);
    if (!current || current.version < version) {
      if (!current && byRole.size >= TREE_CACHE_MAX) byRole.clear();
      byRole.set(key, { version, json });
    }
  }
  return json;
}
