/** The navigation guard of the specification (section 2) and the page-tree matcher, as pure functions. */
import { describe, expect, it } from 'vitest';
import type { PageSection } from '../../src-shared/api/auth';
import {
  afterSignInTarget,
  decide,
  findNode,
  firstPagePath,
  type GuardSession,
} from '../../src-renderer/app/guard';
import { MAIN_ROUTES } from '../../src-renderer/app/router';
import { PASSWORD_MIN } from '../../src-renderer/lib/limits';
import { treePage } from './tree-page';
import { PASSWORD_MIN as SERVER_PASSWORD_MIN } from '../../src-shared/api/fields';

const page = treePage;
const section = (path: string, children: ReturnType<typeof page>[]): PageSection => ({
  ...page(path),
  children,
});

const TREE: PageSection[] = [
  section('/correspondence/inbox', [
    page('/correspondence/inbox/incoming', ['view', 'edit']),
    page('/correspondence/inbox/follow-ups'),
  ]),
  section('/user', [page('/user/settings')]),
];

const signedIn: GuardSession = { signedIn: true, twoFactorPending: false, sections: TREE };
const signedOut: GuardSession = { signedIn: false, twoFactorPending: false, sections: null };
const pending: GuardSession = { signedIn: false, twoFactorPending: true, sections: null };

describe('findNode (recursive match by path)', () => {
  it('finds sections and pages at any depth, ignoring a trailing slash', () => {
    expect(findNode(TREE, '/correspondence/inbox')?.path).toBe('/correspondence/inbox');
    expect(findNode(TREE, '/correspondence/inbox/incoming/')?.permissions).toEqual(['view', 'edit']);
    expect(findNode(TREE, '/user/settings')?.path).toBe('/user/settings');
  });
  it('answers null for a path outside the tree, a prefix or an empty tree', () => {
    expect(findNode(TREE, '/auth/users')).toBeNull();
    expect(findNode(TREE, '/correspondence/inbox/incoming/42')).toBeNull();
    expect(findNode(TREE, '/correspondence')).toBeNull();
    expect(findNode(null, '/user/settings')).toBeNull();
  });
});

describe('firstPagePath', () => {
  it('is the first child of the first section', () => {
    expect(firstPagePath(TREE)).toBe('/correspondence/inbox/incoming');
  });
  it('skips a section without pages and is null for an empty tree', () => {
    expect(firstPagePath([section('/empty', []), ...TREE.slice(1)])).toBe('/user/settings');
    expect(firstPagePath([])).toBeNull();
    expect(firstPagePath(null)).toBeNull();
  });
});

describe('decide', () => {
  it('always allows /login', () => {
    for (const session of [signedIn, signedOut, pending])
      expect(decide('/login', null, session)).toEqual({ kind: 'allow', node: null });
  });
  it('allows /login/two-factor only without a token and with the flag set', () => {
    expect(decide('/login/two-factor', null, pending)).toEqual({ kind: 'allow', node: null });
    expect(decide('/login/two-factor', null, signedOut)).toMatchObject({ kind: 'redirect', to: '/login' });
    expect(decide('/login/two-factor', null, signedIn)).toMatchObject({ kind: 'redirect', to: '/' });
  });
  it('sends a user without a token to two-factor when the flag is set, else to /login, remembering deep links', () => {
    expect(decide('/correspondence/inbox/incoming/5', '/correspondence/inbox/incoming', signedOut)).toEqual({
      kind: 'redirect',
      to: '/login',
      rememberTarget: true,
    });
    expect(decide('/user/settings', null, pending)).toEqual({
      kind: 'redirect',
      to: '/login/two-factor',
      rememberTarget: true,
    });
    expect(decide('/', null, signedOut)).toEqual({ kind: 'redirect', to: '/login', rememberTarget: false });
    // Signed out by the user: the next sign-in leads home, not back to the page they left.
    expect(decide('/user/settings', null, { ...signedOut, leftByChoice: true })).toEqual({
      kind: 'redirect',
      to: '/login',
      rememberTarget: false,
    });
  });
  it('loads the tree first when it is not loaded', () => {
    expect(decide('/', null, { ...signedIn, sections: null })).toEqual({ kind: 'loadTree' });
    expect(decide('/user/settings', null, { ...signedIn, sections: null })).toEqual({ kind: 'loadTree' });
  });
  it('sends / to the first section’s first child, or /no-access when there is none', () => {
    expect(decide('/', null, signedIn)).toMatchObject({
      kind: 'redirect',
      to: '/correspondence/inbox/incoming',
    });
    expect(decide('/', null, { ...signedIn, sections: [] })).toMatchObject({
      kind: 'redirect',
      to: '/no-access',
    });
  });
  it("sends / to the user's chosen home page while it is a page of their tree, else to the first page", () => {
    const home = (homePage: string | null) => decide('/', null, { ...signedIn, homePage });
    expect(home('/user/settings')).toMatchObject({ kind: 'redirect', to: '/user/settings' });
    expect(home('/correspondence/inbox/follow-ups/')).toMatchObject({
      kind: 'redirect',
      to: '/correspondence/inbox/follow-ups',
    });
    // A page no longer theirs (a role changed), a section, or none: the specification's first page.
    for (const gone of ['/auth/users', '/correspondence/inbox', null])
      expect(home(gone)).toMatchObject({ kind: 'redirect', to: '/correspondence/inbox/incoming' });
    expect(decide('/', null, { ...signedIn, sections: [], homePage: '/user/settings' })).toMatchObject({
      to: '/no-access',
    });
  });
  it('allows a path of the tree with its page permissions, and a detail route by its list page', () => {
    const list = decide('/correspondence/inbox/incoming', '/correspondence/inbox/incoming', signedIn);
    expect(list).toMatchObject({ kind: 'allow', node: { permissions: ['view', 'edit'] } });
    const detail = decide('/correspondence/inbox/incoming/42', '/correspondence/inbox/incoming', signedIn);
    expect(detail).toMatchObject({ kind: 'allow', node: { path: '/correspondence/inbox/incoming' } });
  });
  it('sends anything else to /no-access, and allows /no-access itself', () => {
    expect(decide('/auth/users', '/auth/users', signedIn)).toMatchObject({
      kind: 'redirect',
      to: '/no-access',
    });
    expect(decide('/no/such/page', null, signedIn)).toMatchObject({ kind: 'redirect', to: '/no-access' });
    expect(decide('/no-access', null, signedIn)).toEqual({ kind: 'allow', node: null });
  });
});

describe('afterSignInTarget', () => {
  it('returns to a remembered main-layout path, else to /', () => {
    expect(afterSignInTarget('/correspondence/inbox/incoming/42')).toBe('/correspondence/inbox/incoming/42');
    expect(afterSignInTarget(null)).toBe('/');
    expect(afterSignInTarget('/login/two-factor')).toBe('/');
    expect(afterSignInTarget('//evil.example')).toBe('/');
    expect(afterSignInTarget('https://evil.example/')).toBe('/');
  });
});

describe('the route table', () => {
  it('declares every main-layout route of the specification, each with the tree path it belongs to', () => {
    const paths = MAIN_ROUTES.map((r) => r.path);
    for (const path of [
      '/ec/employees',
      '/ec/jobs',
      '/ec/departments',
      '/ec/secretary-offices',
      '/correspondence/inbox/incoming',
      '/correspondence/inbox/incoming/:id',
      '/correspondence/inbox/follow-ups',
      '/correspondence/inbox/follow-ups/:id',
      '/correspondence/inbox/incoming-tasks',
      '/correspondence/inbox/incoming-tasks/:id',
      '/correspondence/inbox/draft',
      '/correspondence/inbox/add',
      '/correspondence/outbox/outgoing',
      '/correspondence/outbox/outgoing/:id',
      '/correspondence/outbox/draft',
      '/correspondence/outbox/draft/:id',
      '/correspondence/outbox/add',
      '/correspondence/outbox/awaiting-approval',
      '/correspondence/outbox/awaiting-approval/:id',
      '/correspondence/outbox/requiring-approval',
      '/correspondence/outbox/requiring-approval/:id',
      '/correspondence/memos/approved-memos',
      '/correspondence/memos/approved-memos/:id',
      '/correspondence/memos/draft',
      '/correspondence/memos/draft/:id',
      '/correspondence/memos/add',
      '/correspondence/memos/awaiting-approval',
      '/correspondence/memos/awaiting-approval/:id',
      '/correspondence/memos/requiring-approval',
      '/correspondence/memos/requiring-approval/:id',
      '/correspondence/settings/mediums',
      '/correspondence/settings/priorities',
      '/correspondence/settings/security-levels',
      '/correspondence/settings/codifications',
      '/correspondence/settings/main-distribution',
      '/auth/users',
      '/auth/roles',
      '/auth/pages',
      '/user/calendar',
      '/user/settings',
    ]) {
      expect(paths, path).toContain(path);
    }
    for (const route of MAIN_ROUTES) {
      expect(route.path.startsWith(route.treePath), route.path).toBe(true);
      expect(route.treePath.includes(':')).toBe(false);
    }
  });
});

it('checks passwords with the server’s minimum length', () => {
  expect(PASSWORD_MIN).toBe(SERVER_PASSWORD_MIN);
});
