/**
 * The place kept across sign-in belongs to the user who was signed in: the next person at a shared desk
 * lands on their own first page, not on the previous user's screen.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { rememberTarget, sessionStore, takeRememberedTarget } from '../../src-renderer/app/session';

const user = (id: number) => ({ id, username: `u${id}` }) as never;

describe('the remembered deep link', () => {
  beforeEach(() => {
    sessionStorage.clear();
    sessionStore.reset();
  });

  it('goes back to the user whose session ended there', () => {
    sessionStore.set({ signedIn: true, user: user(7) });
    sessionStore.reset(); // the session ends; the guard remembers where they were
    rememberTarget('/correspondence/inbox/add');
    expect(takeRememberedTarget(7)).toBe('/correspondence/inbox/add');
  });

  it('is dropped when someone else signs in', () => {
    sessionStore.set({ signedIn: true, user: user(7) });
    sessionStore.reset();
    rememberTarget('/correspondence/inbox/incoming-tasks/12');
    expect(takeRememberedTarget(8)).toBeNull();
    expect(takeRememberedTarget(7)).toBeNull(); // taken once, whoever took it
  });

  it('a link opened before anyone signed in goes to whoever signs in', () => {
    rememberTarget('/ec/jobs');
    expect(takeRememberedTarget(3)).toBe('/ec/jobs');
  });

  it('is dropped when the signed-in user is not known yet', () => {
    sessionStore.set({ signedIn: true, user: user(7) });
    sessionStore.reset();
    rememberTarget('/auth/users');
    expect(takeRememberedTarget(null)).toBeNull();
  });
});
