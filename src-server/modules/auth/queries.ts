/**
 * SQL of sign-in, sessions, two-factor and the page tree. Every security state lives in the database
 * (sessions, challenges, throttling, the last accepted TOTP step), never in process memory.
 */
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/open';
import {
  loginThrottle,
  pages,
  recoveryCodes,
  rolePagePermissions,
  roles,
  sessions,
  twoFactorChallenges,
  users,
} from '../../db/schema';

/** A transaction or the database. */
export type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

/** Builds the caller lookup as a prepared statement (parsed and planned once per connection). */
function prepareFindCaller(db: Db) {
  // Written out with aliases: inside a subquery drizzle may drop table qualifiers. A null page path
  // matches no page, so the same statement serves routes without a page.
  const permissions = sql<string[] | null>`(select rpp.permissions from role_page_permissions rpp
        join pages p on p.id = rpp.page_id
        where rpp.role_id = "users"."role_id" and p.path = ${sql.placeholder('pagePath')})`;
  // The access version (migration 0005) in the same round-trip and snapshot as the role: as text, the
  // same from both drivers whatever the size of the bigint.
  const accessVersion = sql<string | null>`(select av.version::text from access_version av where av.id = 1)`;
  return db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      rememberMe: sessions.rememberMe,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
      userId: users.id,
      username: users.username,
      email: users.email,
      nameAr: users.nameAr,
      nameEn: users.nameEn,
      locale: users.locale,
      preferences: users.preferences,
      totpEnabled: users.totpEnabled,
      employeeId: users.employeeId,
      roleId: users.roleId,
      roleNameAr: roles.nameAr,
      roleNameEn: roles.nameEn,
      roleRequiresTwoFactor: roles.requireTwoFactor,
      isSystem: roles.isSystem,
      roleActive: roles.active,
      permissions,
      accessVersion,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.idleExpiresAt, sql`now()`),
        gt(sessions.absoluteExpiresAt, sql`now()`),
        eq(users.active, true),
      ),
    )
    .limit(1)
    .prepare('sijill_find_caller');
}

const findCallerStatements = new WeakMap<Db, ReturnType<typeof prepareFindCaller>>();

/**
 * The caller of a bearer token in one query: the live session, its active user, the role, (for a page
 * route) the role's permissions on that page, and the access version that keys the page-tree cache. It
 * runs on every protected request, so it is prepared.
 */
export async function findCallerBySession(db: Db, tokenHash: string, pagePath: string | null) {
  let statement = findCallerStatements.get(db);
  if (!statement) {
    statement = prepareFindCaller(db);
    findCallerStatements.set(db, statement);
  }
  const [row] = await statement.execute({ tokenHash, pagePath });
  return row ?? null;
}

/** Marks a session as seen now and pushes its idle expiry (never past the absolute one). */
export async function touchSession(db: Tx, sessionId: number, idleSeconds: number): Promise<void> {
  await db
    .update(sessions)
    .set({
      lastSeenAt: sql`now()`,
      idleExpiresAt: sql`least(now() + make_interval(secs => ${idleSeconds}), ${sessions.absoluteExpiresAt})`,
    })
    .where(eq(sessions.id, sessionId));
}

/** Starts a session; returns its row. */
export async function insertSession(
  db: Tx,
  values: {
    tokenHash: string;
    userId: number;
    rememberMe: boolean;
    idleSeconds: number;
    absoluteSeconds: number;
    ip: string | null;
    userAgent: string | null;
  },
) {
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: values.tokenHash,
      userId: values.userId,
      rememberMe: values.rememberMe,
      idleExpiresAt: sql`now() + make_interval(secs => ${values.idleSeconds})`,
      absoluteExpiresAt: sql`now() + make_interval(secs => ${values.absoluteSeconds})`,
      ip: values.ip,
      userAgent: values.userAgent,
    })
    .returning({ id: sessions.id, absoluteExpiresAt: sessions.absoluteExpiresAt });
  return row!;
}

export async function deleteSession(db: Tx, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user (password change or reset, deactivation). */
export async function deleteUserSessions(db: Tx, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function countUsers(db: Tx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

const userWithRole = {
  id: users.id,
  username: users.username,
  email: users.email,
  passwordHash: users.passwordHash,
  nameAr: users.nameAr,
  nameEn: users.nameEn,
  active: users.active,
  locale: users.locale,
  totpEnabled: users.totpEnabled,
  totpSecret: users.totpSecret,
  totpPendingSecret: users.totpPendingSecret,
  twoFactorSkippedAt: users.twoFactorSkippedAt,
  employeeId: users.employeeId,
  roleId: roles.id,
  roleNameAr: roles.nameAr,
  roleNameEn: roles.nameEn,
  roleRequiresTwoFactor: roles.requireTwoFactor,
  roleIsSystem: roles.isSystem,
};
export type UserWithRole = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** The user whose username or email is `login` (case-insensitive). */
export async function findUserByLogin(db: Tx, login: string) {
  const lower = login.toLowerCase();
  const [row] = await db
    .select(userWithRole)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(or(sql`lower(${users.username}) = ${lower}`, sql`lower(${users.email}) = ${lower}`))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Tx, userId: number) {
  const [row] = await db
    .select(userWithRole)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** The built-in administrator role's id (the base data guarantees it exists). */
export async function systemRoleId(db: Tx): Promise<number> {
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.isSystem, true)).limit(1);
  if (!row) throw new Error('The administrator role is missing: base data not applied');
  return row.id;
}

/** Inserts a user; returns the id. Unique username/email violations surface as database errors. */
export async function insertUser(
  db: Tx,
  values: {
    username: string;
    email: string;
    passwordHash: string;
    nameAr: string;
    nameEn: string;
    roleId: number;
    locale: string;
    active: boolean;
  },
): Promise<number> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!.id;
}

export async function markSignedIn(db: Tx, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ lastSignInAt: sql`now()` })
    .where(eq(users.id, userId));
}

export async function setPasswordHash(db: Tx, userId: number, passwordHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

// ---------------------------------------------------------------- throttling

/** The latest lock among the keys, if any is locked now. */
export async function lockedUntil(db: Tx, keys: string[]): Promise<Date | null> {
  const rows = await db
    .select({ lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(and(inArray(loginThrottle.key, keys), gt(loginThrottle.lockedUntil, sql`now()`)));
  const times = rows.map((r) => r.lockedUntil!.getTime());
  return times.length ? new Date(Math.max(...times)) : null;
}

/** Counts one failure for a key (a new window after `windowSeconds`); locks it at `max` failures. */
export async function recordFailure(
  db: Tx,
  key: string,
  max: number,
  windowSeconds: number,
  lockSeconds: number,
): Promise<boolean> {
  const fresh = sql`${loginThrottle.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})`;
  const failures = sql`case when ${fresh} then 1 else ${loginThrottle.failures} + 1 end`;
  const [row] = await db
    .insert(loginThrottle)
    .values({
      key,
      failures: 1,
      lockedUntil: max <= 1 ? sql`now() + make_interval(secs => ${lockSeconds})` : null,
    })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${fresh} then now() else ${loginThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when ${failures} >= ${max} then now() + make_interval(secs => ${lockSeconds}) else ${loginThrottle.lockedUntil} end`,
      },
    })
    .returning({ lockedUntil: loginThrottle.lockedUntil });
  return !!row?.lockedUntil && row.lockedUntil.getTime() > Date.now();
}

export async function clearThrottle(db: Tx, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

// ---------------------------------------------------------------- two-factor

export async function insertChallenge(
  db: Tx,
  values: {
    tokenHash: string;
    userId: number;
    purpose: 'required' | 'setup';
    rememberMe: boolean;
    seconds: number;
    ip: string | null;
  },
) {
  const [row] = await db
    .insert(twoFactorChallenges)
    .values({ ...values, expiresAt: sql`now() + make_interval(secs => ${values.seconds})` })
    .returning({ id: twoFactorChallenges.id, expiresAt: twoFactorChallenges.expiresAt });
  return row!;
}

/** A live challenge (not consumed, not expired) by its token hash. */
export async function findLiveChallenge(db: Tx, tokenHash: string) {
  const [row] = await db
    .select()
    .from(twoFactorChallenges)
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, tokenHash),
        isNull(twoFactorChallenges.consumedAt),
        gt(twoFactorChallenges.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Consumes a challenge once: false when it was already consumed (a race lost). */
export async function consumeChallenge(db: Tx, id: number): Promise<boolean> {
  const rows = await db
    .update(twoFactorChallenges)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(twoFactorChallenges.id, id), isNull(twoFactorChallenges.consumedAt)))
    .returning({ id: twoFactorChallenges.id });
  return rows.length === 1;
}

/** Counts a wrong code; the challenge dies at `max` attempts. */
export async function failChallenge(db: Tx, id: number, max: number): Promise<void> {
  await db
    .update(twoFactorChallenges)
    .set({
      attempts: sql`${twoFactorChallenges.attempts} + 1`,
      consumedAt: sql`case when ${twoFactorChallenges.attempts} + 1 >= ${max} then now() else ${twoFactorChallenges.consumedAt} end`,
    })
    .where(eq(twoFactorChallenges.id, id));
}

/** Accepts a TOTP time step once per user: false if this step (or a later one) was used already. */
export async function acceptTotpStep(db: Tx, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length === 1;
}

export async function setPendingSecret(db: Tx, userId: number, secret: string): Promise<void> {
  await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
}

/** Turns two-factor on with the pending secret. */
export async function enableTotp(db: Tx, userId: number, secret: string): Promise<void> {
  await db
    .update(users)
    .set({ totpSecret: secret, totpPendingSecret: null, totpEnabled: true, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** Turns two-factor off and forgets the secret and the recovery codes. */
export async function disableTotp(db: Tx, userId: number): Promise<void> {
  await db
    .update(users)
    .set({
      totpSecret: null,
      totpPendingSecret: null,
      totpEnabled: false,
      totpLastStep: null,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function setTwoFactorSkipped(db: Tx, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ twoFactorSkippedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** Replaces a user's recovery codes with new hashes. */
export async function replaceRecoveryCodes(db: Tx, userId: number, codeHashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses a recovery code once: false when unknown or already used. */
export async function useRecoveryCode(db: Tx, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

// ---------------------------------------------------------------- page tree

/** Every section and page with the role's permissions on it (null when it holds none). */
function preparePagesWithRolePermissions(db: Db) {
  return db
    .select({
      id: pages.id,
      parentId: pages.parentId,
      nameAr: pages.nameAr,
      nameEn: pages.nameEn,
      path: pages.path,
      icon: pages.icon,
      order: pages.order,
      availablePermissions: pages.availablePermissions,
      permissions: rolePagePermissions.permissions,
    })
    .from(pages)
    .leftJoin(
      rolePagePermissions,
      and(
        eq(rolePagePermissions.pageId, pages.id),
        eq(rolePagePermissions.roleId, sql.placeholder('roleId')),
      ),
    )
    .orderBy(asc(pages.order), asc(pages.id))
    .prepare('sijill_pages_with_role_permissions');
}

const pagesStatements = new WeakMap<Db, ReturnType<typeof preparePagesWithRolePermissions>>();

/** Every section and page with one role's stored permissions (prepared: every client start asks for it). */
export async function pagesWithRolePermissions(db: Db, roleId: number) {
  let statement = pagesStatements.get(db);
  if (!statement) {
    statement = preparePagesWithRolePermissions(db);
    pagesStatements.set(db, statement);
  }
  return statement.execute({ roleId });
}

/**
 * Changes a user's own settings (PUT /auth/profile/preferences) in one statement: `set` merged over the
 * stored entries, `unset` removed. Answers the entries as stored now.
 */
export async function mergePreferences(
  db: Tx,
  userId: number,
  set: Record<string, unknown>,
  unset: readonly string[],
): Promise<unknown> {
  const [row] = await db
    .update(users)
    .set({
      preferences: sql`(${users.preferences} || ${JSON.stringify(set)}::jsonb) - array[${sql.join(
        unset.map((key) => sql`${key}`),
        sql`, `,
      )}]::text[]`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId))
    .returning({ preferences: users.preferences });
  return row?.preferences ?? {};
}
