/**
 * SessionService: sign-in, the two-factor step, sign-out, the profile and the page tree, over the
 * ApiClient (which adds host, headers and the stored token), the SessionVault (the access token) and
 * LocalStore (the specification's client-side keys: rememberMe, useTotp, sections, user).
 *
 * Neither the access token nor the two-factor challenge token ever leaves main: the renderer learns
 * only "signed in", "a second step follows (required/setup, can skip)" or "rejected (status, detail)".
 * The challenge lives in memory only, so a restart mid-sign-in starts the sign-in again.
 *
 * The last profile and page tree stay in LocalStore (`user`, `sections`) until sign-out or a 401, so
 * the client opens with its menu when the server is unreachable, and says so (`offline`).
 */
import { z } from 'zod';
import {
  loginResponseSchema,
  profileSchema,
  setupStatusSchema,
  twoFactorSetupSchema,
  userPagesTreeSchema,
} from '../../src-shared/api/auth';
import {
  IPC_ERRORS,
  type ApiRequest,
  type Connection,
  type Rejected,
  type SessionState,
  type SignInResult,
  type TwoFactorStep,
} from '../../src-shared/ipc/contract';
import type { PageSection, Profile } from '../../src-shared/api/auth';
import { IpcFailure } from '../ipc/dispatch';
import type { ApiClient } from './api-client';
import type { LocalStore } from './local-store';
import type { SessionVault } from './session-vault';

export interface SessionServiceOptions {
  api: ApiClient;
  vault: SessionVault;
  store: LocalStore;
  /**
   * The API base when no organisation server is configured: this computer's server, or null when it is
   * not running (the desktop started in connected mode; a restart starts it).
   */
  localServerUrl: () => string | null;
  /** The clock, for the challenge expiry (tests move it). */
  now?: () => number;
  /**
   * How long signing out waits for the server to end the session there (default 3 s): a busy or slow
   * server never keeps the user signed in here; its session then ends on its own.
   */
  logoutWaitMs?: number;
}

const LOGOUT_WAIT_MS = 3000;

interface Challenge extends TwoFactorStep {
  token: string;
  expiresAt: number;
}

const KEYS_CLEARED_ON_SIGN_OUT = ['useTotp', 'sections', 'user'] as const;

/** The session of the one user of this client. */
export class SessionService {
  #challenge: Challenge | null = null;
  private readonly now: () => number;

  constructor(private readonly options: SessionServiceOptions) {
    this.now = options.now ?? Date.now;
    const { store, vault } = options;
    // A two-factor step cannot survive a restart (its challenge was in memory): start the sign-in again.
    store.delete('useTotp');
    // Without remember-me the session lasts as long as the application: a new start signs in again.
    if (store.get<string>('rememberMe') === 'false' && vault.getToken()) {
      vault.clear();
      store.delete(...KEYS_CLEARED_ON_SIGN_OUT);
    }
  }

  /** The session as stored; no call to the server. */
  state(): SessionState {
    const { store, vault } = this.options;
    const challenge = this.pendingChallenge();
    const signedIn = vault.getToken() !== null;
    return {
      signedIn,
      twoFactorPending: !signedIn && challenge !== null,
      twoFactor: !signedIn && challenge ? { mode: challenge.mode, canSkip: challenge.canSkip } : null,
      rememberMe: asFlag(store.get<unknown>('rememberMe')),
      user: parseOrNull(profileSchema, store.get('user')),
      sections: parseOrNull(z.array(userPagesTreeSchema.shape.pages.element), store.get('sections')),
      offline: !this.options.api.connection.isOnline,
    };
  }

  /** POST /auth/login. */
  async login(input: { login: string; password: string; rememberMe: boolean }): Promise<SignInResult> {
    this.signOutLocally();
    this.options.store.set('rememberMe', String(input.rememberMe));
    const response = await this.call({ method: 'POST', path: '/auth/login', body: input });
    return this.afterSignInAnswer(response);
  }

  /** GET /setup: whether the server still has no user. */
  async setupStatus(): Promise<{ result: 'ok'; needed: boolean } | Rejected> {
    const response = await this.call({ method: 'GET', path: '/setup' });
    if (!isSuccess(response.status)) return rejected(response);
    const parsed = setupStatusSchema.safeParse(dataOf(response.body));
    if (!parsed.success) throw new Error('GET /setup answered an unexpected shape');
    return { result: 'ok', needed: parsed.data.needed };
  }

  /** POST /setup: the first administrator; answers like a sign-in (the server does not remember this session). */
  async setupCreate(input: {
    username: string;
    email: string;
    password: string;
    nameAr?: string | undefined;
    nameEn?: string | undefined;
  }): Promise<SignInResult> {
    this.signOutLocally();
    this.options.store.set('rememberMe', 'false');
    const response = await this.call({ method: 'POST', path: '/setup', body: input });
    return this.afterSignInAnswer(response);
  }

  /** GET /auth/two-factor/setup?challengeToken=…: the enrolment material during sign-in. */
  async twoFactorSetup() {
    const challenge = this.requireChallenge();
    const response = await this.call({
      method: 'GET',
      path: '/auth/two-factor/setup',
      query: { challengeToken: challenge.token },
    });
    this.keepFlag();
    if (!isSuccess(response.status)) return rejected(response);
    const parsed = twoFactorSetupSchema.safeParse(dataOf(response.body));
    if (!parsed.success) throw new Error('GET /auth/two-factor/setup answered an unexpected shape');
    return { result: 'ok' as const, ...parsed.data };
  }

  /** POST /auth/two-factor/verify with a TOTP or recovery code. */
  async twoFactorVerify(code: string): Promise<SignInResult> {
    const challenge = this.requireChallenge();
    const response = await this.call({
      method: 'POST',
      path: '/auth/two-factor/verify',
      body: { challengeToken: challenge.token, code: code.trim() },
    });
    return this.afterSecondStep(response);
  }

  /** POST /auth/two-factor/skip (only where the server offers it). */
  async twoFactorSkip(): Promise<SignInResult> {
    const challenge = this.requireChallenge();
    const response = await this.call({
      method: 'POST',
      path: '/auth/two-factor/skip',
      body: { challengeToken: challenge.token },
    });
    return this.afterSecondStep(response);
  }

  /**
   * POST /auth/logout, best effort: an unreachable server, or one that has not answered within
   * `logoutWaitMs`, does not keep the user signed in here (the request goes on; the server's session
   * otherwise expires on its own).
   */
  async logout(): Promise<SessionState> {
    if (this.options.vault.getToken()) {
      const told = this.options.api
        .request({ method: 'POST', path: '/auth/logout', body: {} })
        // unreachable: the local session ends anyway
        .catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((done) => {
        timer = setTimeout(done, this.options.logoutWaitMs ?? LOGOUT_WAIT_MS);
      });
      await Promise.race([told, waited]);
      clearTimeout(timer);
    }
    this.signOutLocally();
    return this.state();
  }

  /** GET /auth/profile, saved as `user`; the cached one when the server is unreachable. */
  async profile(): Promise<{ result: 'ok'; user: Profile; offline: boolean } | Rejected> {
    const read = await this.cachedRead('user', '/auth/profile', (body) => profileSchema.parse(dataOf(body)));
    return read.result === 'ok' ? { result: 'ok', user: read.value, offline: read.offline } : read;
  }

  /** GET /auth/user-pages-tree (`data.pages`), saved as `sections`; the cached tree when unreachable. */
  async pagesTree(): Promise<{ result: 'ok'; sections: PageSection[]; offline: boolean } | Rejected> {
    const read = await this.cachedRead(
      'sections',
      '/auth/user-pages-tree',
      (body) => userPagesTreeSchema.parse(dataOf(body)).pages,
    );
    return read.result === 'ok' ? { result: 'ok', sections: read.value, offline: read.offline } : read;
  }

  /**
   * PUT /auth/profile/password. The server ends every session of the user and answers a fresh token for
   * this one: main keeps it, so the user stays signed in here (and only here).
   */
  async changePassword(input: {
    oldPassword: string;
    password: string;
    passwordConfirmation: string;
  }): Promise<{ result: 'ok'; returnMessage: string } | Rejected> {
    const response = await this.call({ method: 'PUT', path: '/auth/profile/password', body: input });
    if (!isSuccess(response.status)) return rejected(response);
    const parsed = z.object({ accessToken: z.string().min(1) }).safeParse(dataOf(response.body));
    if (!parsed.success) throw new Error('The password change answered an unexpected shape');
    this.options.vault.setToken(parsed.data.accessToken);
    const message = (response.body as { returnMessage?: unknown }).returnMessage;
    return { result: 'ok', returnMessage: typeof message === 'string' ? message : '' };
  }

  /** Which server the client talks to. */
  connection(): Connection {
    const serverUrl = this.options.store.getServerUrl();
    return {
      serverUrl,
      apiBaseUrl: serverUrl ?? this.options.localServerUrl(),
      localAvailable: this.options.localServerUrl() !== null,
    };
  }

  /**
   * Sets the organisation server (null = this computer). A session belongs to the server that opened
   * it, so the current one ends here. Answers whether the server in effect answers GET /health.
   */
  async setConnection(serverUrl: string | null): Promise<Connection> {
    this.signOutLocally();
    this.options.store.setServerUrl(serverUrl);
    const connection = this.connection();
    if (connection.apiBaseUrl === null) return { ...connection, reachable: false };
    let reachable = false;
    try {
      const response = await this.options.api.request({ method: 'GET', path: '/health' });
      reachable = isSuccess(response.status);
    } catch {
      reachable = false;
    }
    return { ...connection, reachable };
  }

  // ------------------------------------------------------------------ internals

  /** One call (the ApiClient's connection watch notes whether the server answered at all). */
  private call(request: ApiRequest) {
    return this.options.api.request(request);
  }

  /** A signed-in read that is cached under `key`; offline, the cached value answers instead. */
  private async cachedRead<K extends 'user' | 'sections'>(
    key: K,
    path: string,
    parse: (body: unknown) => NonNullable<SessionState[K]>,
  ): Promise<{ result: 'ok'; value: NonNullable<SessionState[K]>; offline: boolean } | Rejected> {
    let response;
    try {
      response = await this.call({ method: 'GET', path });
    } catch (error) {
      const cached = this.state()[key];
      const unreachable = error instanceof IpcFailure && error.code === IPC_ERRORS.serverUnreachable;
      if (unreachable && cached !== null && this.options.vault.getToken()) {
        return { result: 'ok', value: cached as NonNullable<SessionState[K]>, offline: true };
      }
      throw error;
    }
    if (!isSuccess(response.status)) return rejected(response);
    const value = parse(response.body);
    this.options.store.set(key, value);
    return { result: 'ok', value, offline: false };
  }

  /** Reads a login/setup answer: a token (signed in) or a challenge (a second step). */
  private afterSignInAnswer(response: { status: number; body: unknown }): SignInResult {
    if (!isSuccess(response.status)) return rejected(response);
    const parsed = loginResponseSchema.safeParse(dataOf(response.body));
    if (!parsed.success) throw new Error('The sign-in answer has an unexpected shape');
    const answer = parsed.data;
    if ('accessToken' in answer) {
      this.signedIn(answer.accessToken);
      return { result: 'signedIn' };
    }
    const expiresAt = Date.parse(answer.expiresAt);
    this.#challenge = {
      token: answer.challengeToken,
      mode: answer.twoFactor,
      canSkip: answer.canSkip,
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : this.now() + 5 * 60_000,
    };
    this.options.store.set('useTotp', 'true');
    return { result: 'twoFactor', mode: answer.twoFactor, canSkip: answer.canSkip };
  }

  /** Reads a verify/skip answer; a refused code keeps the challenge for another try. */
  private afterSecondStep(response: { status: number; body: unknown }): SignInResult {
    if (!isSuccess(response.status)) {
      if (response.status === 401) {
        // The challenge expired or was used up: the sign-in starts again.
        this.signOutLocally();
      } else {
        // A wrong code: the challenge is still good for another try.
        this.keepFlag();
      }
      return rejected(response);
    }
    const parsed = z
      .object({ accessToken: z.string().min(1), recoveryCodes: z.array(z.string()).optional() })
      .safeParse(dataOf(response.body));
    if (!parsed.success) throw new Error('The two-factor answer has an unexpected shape');
    this.signedIn(parsed.data.accessToken);
    return parsed.data.recoveryCodes
      ? { result: 'signedIn', recoveryCodes: parsed.data.recoveryCodes }
      : { result: 'signedIn' };
  }

  private signedIn(token: string): void {
    this.#challenge = null;
    this.options.vault.setToken(token);
    this.options.store.delete(...KEYS_CLEARED_ON_SIGN_OUT);
  }

  private signOutLocally(): void {
    this.#challenge = null;
    this.options.vault.clear();
    this.options.store.delete(...KEYS_CLEARED_ON_SIGN_OUT);
  }

  private pendingChallenge(): Challenge | null {
    const challenge = this.#challenge;
    if (challenge && challenge.expiresAt <= this.now()) {
      this.#challenge = null;
      this.options.store.delete('useTotp');
      return null;
    }
    return challenge;
  }

  private requireChallenge(): Challenge {
    const challenge = this.pendingChallenge();
    if (!challenge) throw new IpcFailure('session.noChallenge');
    return challenge;
  }

  /** Puts the `useTotp` flag back while the challenge is still good (the 401 rule removes it). */
  private keepFlag(): void {
    if (this.pendingChallenge()) this.options.store.set('useTotp', 'true');
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function dataOf(body: unknown): unknown {
  return body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : undefined;
}

/** A non-2xx answer as the renderer sees it: status, the localised detail, the per-field messages. */
function rejected(response: { status: number; body: unknown }): Rejected {
  const body = (response.body && typeof response.body === 'object' ? response.body : {}) as {
    detail?: unknown;
    errors?: unknown;
  };
  const errors = z.record(z.string(), z.array(z.string())).safeParse(body.errors);
  return {
    result: 'rejected',
    status: response.status,
    detail: typeof body.detail === 'string' ? body.detail : '',
    ...(errors.success ? { errors: errors.data } : {}),
  };
}

function asFlag(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

function parseOrNull<T>(schema: z.ZodType<T>, value: unknown): T | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
