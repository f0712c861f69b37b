/**
 * A user's own settings (PUT /auth/profile/preferences): the date format, the digits and the home page
 * are kept with the account — answered in the profile of every later session, so they follow the user
 * to any desk — each entry changed alone; a home page must be a page of the user's own tree (not a
 * section, not another role's page); bad values are refused with the field named and change nothing;
 * one user's settings are not another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES, SECTIONS } from '../../src-shared/pages';
import {
  call,
  makeRole,
  makeUser,
  signIn,
  startHarness,
  type Harness,
  type TestUser,
} from './support/harness';

let h: Harness;
let clerk: TestUser;
let other: TestUser;
beforeAll(async () => {
  h = await startHarness();
  const role = await makeRole(h, { [PAGES.incoming]: ['view'], [PAGES.inboxAdd]: ['view', 'add'] });
  clerk = await makeUser(h, role);
  other = await makeUser(h, role);
});
afterAll(async () => {
  await h?.close();
});

const put = (token: string, body: unknown, lang: 'ar' | 'en' = 'en') =>
  call(h, { method: 'PUT', url: '/auth/profile/preferences', token, body, lang });
const profileOf = async (token: string) =>
  (await call(h, { method: 'GET', url: '/auth/profile', token })).json.data as {
    preferences: Record<string, unknown>;
  };

describe('preferences', () => {
  it('are none until chosen, then kept with the account: a new session on another desk has them', async () => {
    const token = await signIn(h, clerk);
    expect((await profileOf(token)).preferences).toEqual({});
    const saved = await put(token, { dateFormat: 'DD/MM/YYYY', homePage: PAGES.inboxAdd });
    expect(saved.status).toBe(200);
    expect(saved.json.data.preferences).toEqual({ dateFormat: 'DD/MM/YYYY', homePage: PAGES.inboxAdd });
    // One entry at a time: the others stay.
    expect((await put(token, { digits: 'arab' })).json.data.preferences).toEqual({
      dateFormat: 'DD/MM/YYYY',
      digits: 'arab',
      homePage: PAGES.inboxAdd,
    });
    const elsewhere = await signIn(h, clerk);
    expect((await profileOf(elsewhere)).preferences).toEqual({
      dateFormat: 'DD/MM/YYYY',
      digits: 'arab',
      homePage: PAGES.inboxAdd,
    });
    // null: back to the first page of the menu.
    expect((await put(elsewhere, { homePage: null })).json.data.preferences).toEqual({
      dateFormat: 'DD/MM/YYYY',
      digits: 'arab',
    });
    // Another user's are their own.
    expect((await profileOf(await signIn(h, other))).preferences).toEqual({});
  });

  it('take as home page only a page of the user’s own tree, saying which field is wrong', async () => {
    const token = await signIn(h, other);
    for (const homePage of [PAGES.users, SECTIONS.inbox, '/nowhere', PAGES.incoming + '/']) {
      const refused = await put(token, { homePage }, 'ar');
      expect(refused.status, homePage).toBe(400);
      expect(refused.json.errors.homePage, homePage).toEqual(['الرجاء اختيار إحدى القيم المسموح بها']);
    }
    // Personal pages are every user's.
    expect((await put(token, { homePage: PAGES.calendar })).status).toBe(200);
    expect((await put(token, { homePage: PAGES.incoming })).json.data.preferences.homePage).toBe(
      PAGES.incoming,
    );
  });

  it('chosen at once, one after the other in quick clicks, both hold', async () => {
    const token = await signIn(h, other);
    const answers = await Promise.all([
      put(token, { dateFormat: 'YYYY-MM-DD' }),
      put(token, { digits: 'arab' }),
      put(token, { homePage: PAGES.inboxAdd }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await profileOf(token)).preferences).toEqual({
      dateFormat: 'YYYY-MM-DD',
      digits: 'arab',
      homePage: PAGES.inboxAdd,
    });
  });

  it('refuse what is not a setting and change nothing', async () => {
    const token = await signIn(h, other);
    const before = (await profileOf(token)).preferences;
    for (const body of [
      { dateFormat: 'DD.MM.YY' },
      { digits: 'roman' },
      { theme: 'dark' },
      { homePage: 42 },
      { homePage: '' },
      [],
    ])
      expect((await put(token, body)).status, JSON.stringify(body)).toBe(400);
    expect((await profileOf(token)).preferences).toEqual(before);
    expect((await put('', { digits: 'arab' })).status).toBe(401);
  });
});
