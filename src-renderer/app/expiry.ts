/**
 * What the client does on main's `session:expired` (a 401: main already cleared the token, the two-factor
 * flag, the sections and the user). Signed-out screens ignore it (a refused password is also a 401).
 * Signed in: the screens forget the session (and with it, through forgetDataOnUserChange, the cached
 * server data); the guard then sends the user to
 * /login, remembering the page to come back to. With remember-me the string `false`, the toast 'You must
 * be logged in to perform this action' (specification section 8); otherwise (remember-me on: the server
 * ended a long-lived session, e.g. after a password change) no toast, and the login page says the session
 * ended.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SijillBridge } from '../../src-shared/ipc/contract';
import { i18n } from '../lib/i18n';
import { toast } from '../lib/toast';
import { sessionActions, sessionStore } from './session';

export function listenForSessionExpiry(bridge: SijillBridge): () => void {
  return bridge.on('session:expired', ({ rememberMe }) => {
    if (!sessionStore.get().signedIn) return;
    sessionActions.expired();
    if (rememberMe === 'false') {
      toast({ severity: 'error', detail: i18n.t('errors.unauthorized') });
      sessionActions.markEndedQuietly(false);
    } else {
      sessionActions.markEndedQuietly(true);
    }
  });
}

/**
 * Cached server answers belong to the user who fetched them: a document's abilities, boxes, the
 * directory. When the session starts or ends, or another user's profile replaces this one, the cache is
 * dropped, so nobody sees the previous user's data or actions on a shared desk, even for a moment.
 */
export function forgetDataOnUserChange(queryClient: QueryClient): () => void {
  let signedIn = sessionStore.get().signedIn;
  let userId = sessionStore.get().user?.id ?? null;
  return sessionStore.subscribe(() => {
    const session = sessionStore.get();
    const nextUserId = session.user?.id ?? null;
    const otherUser = userId !== null && nextUserId !== null && nextUserId !== userId;
    if (session.signedIn !== signedIn || otherUser) queryClient.clear();
    signedIn = session.signedIn;
    userId = nextUserId ?? (session.signedIn ? userId : null);
  });
}
