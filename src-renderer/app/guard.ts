/**
 * The navigation guard of the specification (section 2), as pure functions of the path, the page tree
 * and the session, so it is tested without a browser:
 *
 * - `/login` is always allowed;
 * - `/login/two-factor` only with no access token and the two-factor flag set;
 * - without an access token: the two-factor page if the flag is set, otherwise `/login` (remembering a
 *   deep link to come back to after signing in, unless the user signed out themselves);
 * - `/` goes to the first child of the first section, or `/no-access` — unless the user chose a home
 *   page among the pages of their tree (their preferences), which it goes to while it is in the tree;
 * - any other path must be in the permitted tree (matched by path, searched recursively), else
 *   `/no-access`; the matched page's permissions become the current page permissions.
 */
import type { PageLeaf, PageSection } from '../../src-shared/api/auth';

/** A node of the page tree (a section or a page). */
export type PageNode = PageSection | PageLeaf;

/** What the guard needs to know about the session. */
export interface GuardSession {
  signedIn: boolean;
  twoFactorPending: boolean;
  /** The loaded page tree, or null when not loaded yet. */
  sections: PageSection[] | null;
  /** The page the user chose for `/` (their preferences), if any. */
  homePage?: string | null | undefined;
  /** Signed out by the user themselves: where they were is not remembered for the next sign-in. */
  leftByChoice?: boolean | undefined;
}

export type GuardDecision =
  | { kind: 'allow'; node: PageNode | null }
  | { kind: 'redirect'; to: string; rememberTarget: boolean }
  | { kind: 'loadTree' };

export const LOGIN_PATH = '/login';
export const TWO_FACTOR_PATH = '/login/two-factor';
export const NO_ACCESS_PATH = '/no-access';
export const BASE_PATH = '/';

/** Finds the node with this path anywhere in the tree (depth first), or null. */
export function findNode(nodes: readonly PageNode[] | null | undefined, path: string): PageNode | null {
  if (!nodes) return null;
  const wanted = normalisePath(path);
  for (const node of nodes) {
    if (normalisePath(node.path) === wanted) return node;
    const inChildren = findNode(node.children as readonly PageNode[], wanted);
    if (inChildren) return inChildren;
  }
  return null;
}

/** The first child path of the first section (the first section that has a child), or null. */
export function firstPagePath(sections: readonly PageSection[] | null | undefined): string | null {
  for (const section of sections ?? []) {
    const first = section.children[0];
    if (first) return first.path;
  }
  return null;
}

/**
 * Where `/` leads: the user's chosen home page while it is a page of their tree (a section's child, not
 * a section), else the first child of the first section, else null.
 */
export function homePath(
  sections: readonly PageSection[] | null | undefined,
  homePage?: string | null,
): string | null {
  if (homePage) {
    const wanted = normalisePath(homePage);
    for (const section of sections ?? [])
      for (const page of section.children) if (normalisePath(page.path) === wanted) return page.path;
  }
  return firstPagePath(sections);
}

/**
 * Decides a navigation. `treePath` is the page-tree path the route declares (a detail route such as
 * `/correspondence/inbox/incoming/:id` declares its list's path); without one the path itself is looked up.
 */
export function decide(
  pathname: string,
  treePath: string | null | undefined,
  session: GuardSession,
): GuardDecision {
  const path = normalisePath(pathname);
  if (path === LOGIN_PATH) return { kind: 'allow', node: null };
  if (path === TWO_FACTOR_PATH) {
    if (!session.signedIn && session.twoFactorPending) return { kind: 'allow', node: null };
    return { kind: 'redirect', to: session.signedIn ? BASE_PATH : LOGIN_PATH, rememberTarget: false };
  }
  if (!session.signedIn) {
    return {
      kind: 'redirect',
      to: session.twoFactorPending ? TWO_FACTOR_PATH : LOGIN_PATH,
      rememberTarget: path !== BASE_PATH && !session.leftByChoice,
    };
  }
  if (session.sections === null) return { kind: 'loadTree' };
  if (path === BASE_PATH) {
    return {
      kind: 'redirect',
      to: homePath(session.sections, session.homePage) ?? NO_ACCESS_PATH,
      rememberTarget: false,
    };
  }
  if (path === NO_ACCESS_PATH) return { kind: 'allow', node: null };
  const node = findNode(session.sections, treePath ?? path);
  return node ? { kind: 'allow', node } : { kind: 'redirect', to: NO_ACCESS_PATH, rememberTarget: false };
}

/** Where to go after signing in: the remembered deep link (if it is a main-layout path), else `/`. */
export function afterSignInTarget(remembered: string | null | undefined): string {
  if (!remembered || !remembered.startsWith('/') || remembered.startsWith('//')) return BASE_PATH;
  const path = normalisePath(remembered.split(/[?#]/)[0] ?? '');
  if (path === LOGIN_PATH || path === TWO_FACTOR_PATH || path === NO_ACCESS_PATH) return BASE_PATH;
  return remembered;
}

/** `/a/b/` → `/a/b`; `` → `/`. */
export function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
