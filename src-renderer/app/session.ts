/**
 * The renderer's view of the session: a small external store over main's session channels (main keeps
 * the token, the challenge and the storage keys; this holds what the screens show). The guard and the
 * layouts read it with `useSession()`; sign-in screens call the actions below.
 */
import { useSyncExternalStore } from 'react';
import { authEndpoints, type PreferencesRequest } from '../../src-shared/api/auth';
import type { IpcError, SessionState, SignInResult } from '../../src-shared/ipc/contract';
import { getBridge } from '../lib/bridge';
import { applyPreferences } from '../lib/format';
import { call } from '../lib/call';

export interface ClientSession extends SessionState {
  /** The page tree is being loaded, or failed to load (unreachable with nothing cached). */
  treeStatus: 'idle' | 'loading' | 'failed';
  /** The session ended on a 401 while remember-me was on: the login page says so (no toast). */
  endedQuietly: boolean;
  /**
   * The user signed out themselves: the page they left is not kept for the next sign-in, which leads to
   * their home page (a session that ended by itself keeps it, to come back to after signing in again).
   */
  leftByChoice: boolean;
}

const SIGNED_OUT: ClientSession = {
  signedIn: false,
  twoFactorPending: false,
  twoFactor: null,
  rememberMe: null,
  user: null,
  sections: null,
  offline: false,
  treeStatus: 'idle',
  endedQuietly: false,
  leftByChoice: false,
};

let state: ClientSession = SIGNED_OUT;
const listeners = new Set<() => void>();

function set(patch: Partial<ClientSession>): void {
  state = { ...state, ...patch };
  if (state.user) noteUser(state.user.id);
  // The user's date format and digits (their account's, on any desk); the defaults when signed out.
  applyPreferences(state.user?.preferences ?? null);
  for (const listener of listeners) listener();
}

export const sessionStore = {
  get: (): ClientSession => state,
  set,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Back to a fresh signed-out state (tests). */
  reset(patch: Partial<ClientSession> = {}): void {
    state = { ...SIGNED_OUT, ...patch };
    for (const listener of listeners) listener();
  },
};

/** The session, re-rendering on change. */
export function useSession(): ClientSession {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}

/** A sign-in step that main could not carry out (the bridge or the server unreachable). */
export type StepOutcome = SignInResult | { result: 'failed'; error: IpcError };

// ------------------------------------------------------------------ the remembered deep link

const RETURN_TO_KEY = 'sijill.returnTo';
const LAST_USER_KEY = 'sijill.lastUser';

/** Records who is signed in, so a place remembered when their session ends is theirs. */
function noteUser(id: number): void {
  try {
    sessionStorage.setItem(LAST_USER_KEY, String(id));
  } catch {
    // storage unavailable: remembered places have no owner and are dropped (see takeRememberedTarget)
  }
}

/**
 * Remembers where the user was going when the guard sent them to sign in, with whom it belongs to: the
 * user who was signed in last in this window (none for a link opened before anyone signed in).
 */
export function rememberTarget(path: string): void {
  try {
    const owner = sessionStorage.getItem(LAST_USER_KEY);
    sessionStorage.setItem(RETURN_TO_KEY, JSON.stringify({ path, owner: owner ? Number(owner) : null }));
  } catch {
    // storage unavailable: the user lands on the first page instead
  }
}

/**
 * Takes (and forgets) the remembered deep link — only for the user it belongs to: the next person at a
 * shared desk starts on their own first page, not on the previous user's "Add incoming" or task.
 */
export function takeRememberedTarget(userId: number | null = state.user?.id ?? null): string | null {
  try {
    const raw = sessionStorage.getItem(RETURN_TO_KEY);
    sessionStorage.removeItem(RETURN_TO_KEY);
    if (!raw) return null;
    const { path, owner } = JSON.parse(raw) as { path?: unknown; owner?: unknown };
    if (typeof path !== 'string') return null;
    if (owner !== null && owner !== userId) return null;
    return path;
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ actions

/** Reads main's session (boot, and after each sign-in step). */
export async function refreshSession(): Promise<void> {
  const result = await getBridge().sessionState();
  if (result.ok) set({ ...result.data, treeStatus: 'idle' });
}

async function step(
  call: () => ReturnType<ReturnType<typeof getBridge>['sessionLogin']>,
  { deferWithRecoveryCodes = false } = {},
): Promise<StepOutcome> {
  const result = await call();
  if (!result.ok) return { result: 'failed', error: result.error };
  // Enrolled at sign-in: the screen shows the recovery codes first and then calls refreshSession()
  // (the guard would otherwise leave the two-factor page as soon as the session says signed in).
  if (deferWithRecoveryCodes && result.data.result === 'signedIn' && result.data.recoveryCodes)
    return result.data;
  if (result.data.result === 'signedIn') {
    // Who signed in is known before the screens move on (main saves the profile as `user`): the deep
    // link kept across sign-in is given back only to its owner (takeRememberedTarget).
    await getBridge().sessionProfile();
  }
  if (result.data.result !== 'rejected') {
    await refreshSession();
    set({ endedQuietly: false, leftByChoice: false });
  }
  return result.data;
}

/**
 * Changes the user's own settings on the server (PUT /auth/profile/preferences) and takes the profile it
 * answers: main keeps it (it is the cached `user` of an offline start too), the screens follow. Throws
 * (after the error toast) when the server refuses or cannot be reached; nothing changes then.
 */
export async function savePreferences(change: PreferencesRequest): Promise<void> {
  await call(authEndpoints.preferences, { body: change }, { suppressSuccessToast: true });
  await getBridge().sessionProfile();
  await refreshSession();
}

export const sessionActions = {
  login: (input: { login: string; password: string; rememberMe: boolean }) =>
    step(() => getBridge().sessionLogin(input)),
  createFirstAdministrator: (input: {
    username: string;
    email: string;
    password: string;
    nameAr?: string;
    nameEn?: string;
  }) => step(() => getBridge().setupCreate(input)),
  verifyCode: (code: string) =>
    step(() => getBridge().sessionTwoFactorVerify({ code }), { deferWithRecoveryCodes: true }),
  skipTwoFactor: () => step(() => getBridge().sessionTwoFactorSkip()),

  /** Ends the session here and on the server. */
  async logout(): Promise<void> {
    const result = await getBridge().sessionLogout();
    set({
      ...(result.ok ? { ...result.data, treeStatus: 'idle', endedQuietly: false } : SIGNED_OUT),
      leftByChoice: true,
    });
  },

  /** Loads the page tree once: skipped while sections are loaded (specification section 7). */
  async loadTree(): Promise<void> {
    if (state.sections !== null || state.treeStatus === 'loading') return;
    set({ treeStatus: 'loading' });
    const result = await getBridge().sessionPagesTree();
    if (result.ok && result.data.result === 'ok') {
      set({ sections: result.data.sections, offline: result.data.offline, treeStatus: 'idle' });
      return;
    }
    const offline = !result.ok && result.error.code === 'ipc.serverUnreachable';
    set({ treeStatus: 'failed', ...(offline ? { offline: true } : {}) });
  },

  /** Refreshes the profile (the cached one stays when the server is unreachable, with the banner). */
  async refreshProfile(): Promise<void> {
    const result = await getBridge().sessionProfile();
    if (result.ok && result.data.result === 'ok')
      set({ user: result.data.user, offline: result.data.offline });
    else if (!result.ok && result.error.code === 'ipc.serverUnreachable') set({ offline: true });
  },

  /** Retries after the server was unreachable: the profile, and the tree when it never loaded. */
  async retryConnection(): Promise<void> {
    await sessionActions.refreshProfile();
    if (state.sections === null) {
      set({ treeStatus: 'idle' });
      await sessionActions.loadTree();
    }
  },

  /** main's `session:expired` (a 401): main already cleared its keys; forget what the screens show. */
  expired(): void {
    set({
      signedIn: false,
      twoFactorPending: false,
      twoFactor: null,
      user: null,
      sections: null,
      treeStatus: 'idle',
    });
  },

  markEndedQuietly(value: boolean): void {
    set({ endedQuietly: value });
  },
};
