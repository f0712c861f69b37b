/**
 * The guard as a component at the root of the router: on every navigation (and whenever the session
 * changes, e.g. a 401) it decides with `decide()` and either renders the route, redirects, or loads the
 * page tree first. The matched page becomes the current page (its permissions, its title).
 */
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import { decide } from './guard';
import { CurrentPageProvider } from './permissions';
import { rememberTarget, sessionActions, useSession } from './session';

/** What a route declares in its `handle`. */
export interface RouteHandle {
  /** The page-tree path this route belongs to (detail routes name their list page). */
  treePath?: string;
}

export function Guard() {
  const location = useLocation();
  const matches = useMatches();
  const session = useSession();
  const treePath = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.treePath)
    ?.handle as RouteHandle | undefined;
  const decision = decide(location.pathname, treePath?.treePath, {
    ...session,
    homePage: session.user?.preferences?.homePage ?? null,
  });

  const mustLoadTree = decision.kind === 'loadTree' && session.treeStatus === 'idle';
  useEffect(() => {
    if (mustLoadTree) void sessionActions.loadTree();
  }, [mustLoadTree]);

  if (decision.kind === 'redirect') {
    if (decision.rememberTarget) rememberTarget(`${location.pathname}${location.search}`);
    return <Navigate to={decision.to} replace />;
  }
  if (decision.kind === 'loadTree') {
    if (session.treeStatus === 'failed') {
      return (
        <Suspense fallback={<FullPageSpin />}>
          <TreeFailed />
        </Suspense>
      );
    }
    return <FullPageSpin />;
  }
  return (
    <CurrentPageProvider node={decision.node}>
      <Outlet />
    </CurrentPageProvider>
  );
}

const TreeFailed = lazy(() => import('./TreeFailed'));

/** A light spinner for the first paint (no antd: it keeps the initial bundle small). */
export function FullPageSpin() {
  return (
    <div className="full-page" role="progressbar" aria-busy="true">
      <span className="boot-spinner" />
    </div>
  );
}
