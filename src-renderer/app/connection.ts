/**
 * What the client does on main's `connection:changed`. Away: the offline banner shows (the screens keep
 * what they cached). Back: the banner goes by itself, the profile and (if it never loaded) the page tree
 * are read again, and every query the screens hold is fetched again, so nothing stale or "could not
 * load" stays on screen under live data.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SijillBridge } from '../../src-shared/ipc/contract';
import { sessionActions, sessionStore } from './session';

export function listenForConnection(bridge: SijillBridge, queryClient: QueryClient): () => void {
  return bridge.on('connection:changed', ({ online }) => {
    sessionStore.set({ offline: !online });
    if (!online || !sessionStore.get().signedIn) return;
    void sessionActions.retryConnection();
    void queryClient.invalidateQueries();
  });
}
