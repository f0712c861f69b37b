/**
 * Cached server answers never outlive the user who fetched them: signing out, or another user's profile
 * replacing this one, empties the query cache (a document's abilities, boxes and the directory are per
 * user); a profile refresh of the same user keeps it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Profile } from '../../src-shared/api/auth';
import { forgetDataOnUserChange } from '../../src-renderer/app/expiry';
import { sessionStore } from '../../src-renderer/app/session';

const profile = (id: number): Profile =>
  ({
    id,
    username: `u${id}`,
    email: `u${id}@sijill.test`,
    nameAr: 'س',
    nameEn: 'S',
    employee: null,
  }) as unknown as Profile;

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  sessionStore.reset();
});

function signedInAs(id: number) {
  sessionStore.reset({ signedIn: true, user: profile(id) });
  const client = new QueryClient();
  stop = forgetDataOnUserChange(client);
  client.setQueryData(['document', 1], { abilities: { distribute: true } });
  return client;
}

describe('the query cache follows the signed-in user', () => {
  it('keeps data when the same user’s profile is refreshed', () => {
    const client = signedInAs(7);
    sessionStore.set({ user: profile(7), offline: false });
    expect(client.getQueryData(['document', 1])).toEqual({ abilities: { distribute: true } });
  });

  it('drops data on sign-out', () => {
    const client = signedInAs(7);
    sessionStore.set({ signedIn: false, user: null });
    expect(client.getQueryData(['document', 1])).toBeUndefined();
  });

  it('drops data when another user’s profile takes the place of this one', () => {
    const client = signedInAs(7);
    sessionStore.set({ user: profile(8) });
    expect(client.getQueryData(['document', 1])).toBeUndefined();
  });

  it('drops what was fetched while signed out when a user signs in', () => {
    sessionStore.reset();
    const client = new QueryClient();
    stop = forgetDataOnUserChange(client);
    client.setQueryData(['document', 1], { abilities: { distribute: true } });
    sessionStore.set({ signedIn: true, user: profile(9) });
    expect(client.getQueryData(['document', 1])).toBeUndefined();
  });
});
