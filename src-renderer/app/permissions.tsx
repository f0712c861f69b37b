/**
 * The current page's permissions (the specification's `currentPathPermissions`): the guard provides the
 * matched page node; screens show or hide their actions with `useCan('add')`.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { Permission } from '../../src-shared/permissions';
import { findNode, type PageNode } from './guard';
import { useSession } from './session';

const CurrentPageContext = createContext<PageNode | null>(null);

export function CurrentPageProvider({ node, children }: { node: PageNode | null; children: ReactNode }) {
  return <CurrentPageContext.Provider value={node}>{children}</CurrentPageContext.Provider>;
}

/** The page-tree node the guard matched for this route (null on /no-access and the login screens). */
export function useCurrentPage(): PageNode | null {
  return useContext(CurrentPageContext);
}

/** The permissions the signed-in user's role holds on the current page. */
export function usePagePermissions(): readonly Permission[] {
  return useContext(CurrentPageContext)?.permissions ?? [];
}

/** Whether the current page allows an action (`view`, `add`, `edit`, `delete`, `activate`, …). */
export function useCan(permission: Permission): boolean {
  return usePagePermissions().includes(permission);
}

/** Whether the signed-in user's role allows `permission` on another page of their tree (e.g. "Reply"). */
export function useCanOn(path: string, permission: Permission): boolean {
  const sections = useSession().sections;
  return findNode(sections, path)?.permissions.includes(permission) ?? false;
}
