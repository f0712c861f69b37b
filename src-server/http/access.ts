/**
 * Route access declarations and their enforcement. Every route says in its `config.access` who may call
 * it: `public`, `authenticated` (any signed-in user), or a page path and the permission it needs on that
 * page. One `onRequest` hook enforces it: a missing declaration fails closed (500), no or a dead session
 * is 401, a missing page permission is 403. An `onRoute` hook records every route for the test that
 * proves none lacks a declaration.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission } from '../../src-shared/permissions';
import type { Profile } from '../../src-shared/api/auth';
import { HttpProblem } from './problem';

export type RouteAccess = 'public' | 'authenticated' | { page: string; permission: Permission };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The signed-in caller, set by the access hook on every non-public route. */
    auth: AuthContext | null;
  }
}

/** The caller as the access hook found it (one query: session, user, role, page permissions). */
export interface AuthContext {
  sessionId: number;
  userId: number;
  username: string;
  roleId: number;
  /** The built-in administrator role: every permission on every page. */
  isSystem: boolean;
  /** An inactive role grants nothing but the personal pages. */
  roleActive: boolean;
  /**
   * The database's access version read with the session (it changes with any change to pages, role page
   * permissions or roles; see migration 0005): the page tree of this role is the cached one while it is
   * unchanged. Null when unknown (never cached).
   */
  accessVersion: string | null;
  /** The caller's profile, read in the same query (GET /auth/profile answers it without another). */
  profile: Profile;
}

/** A registered route and what it declares. */
export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
}

/** Resolves a bearer token to the caller and, for page routes, whether the caller holds the permission. */
export type Authenticate = (
  token: string,
  page: { page: string; permission: Permission } | null,
  request: FastifyRequest,
) => Promise<{ auth: AuthContext; permitted: boolean } | null>;

const routesKey = Symbol('sijill.routes');
type WithRoutes = FastifyInstance & { [routesKey]?: RegisteredRoute[] };

/** Routes under these prefixes come from plugins (the OpenAPI UI) and are public documentation. */
const PUBLIC_PREFIXES = ['/docs'];

/** Reads the bearer token of a request, if any. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S{1,200})$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Installs the route recorder and the enforcement hook. Call it before any route is registered (the
 * recorder only sees routes added afterwards).
 */
export function installAccessControl(app: FastifyInstance, authenticate: Authenticate): void {
  const routes: RegisteredRoute[] = [];
  (app as WithRoutes)[routesKey] = routes;
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (PUBLIC_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`))) {
      route.config = { ...(route.config ?? {}), access: 'public' };
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method: String(method), url, access: route.config?.access });
  });

  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (access === undefined) {
      request.log.error({ url: request.routeOptions.url }, 'route without an access declaration');
      throw new HttpProblem('internal');
    }
    if (access === 'public') return;
    const token = bearerToken(request);
    if (!token) throw new HttpProblem('unauthorized');
    const found = await authenticate(token, access === 'authenticated' ? null : access, request);
    if (!found) throw new HttpProblem('unauthorized');
    request.auth = found.auth;
    if (!found.permitted) throw new HttpProblem('forbidden');
  });
}

/** Every route registered on the app, with its access declaration (for tests and audits of the API). */
export function listRoutes(app: FastifyInstance): RegisteredRoute[] {
  return [...((app as WithRoutes)[routesKey] ?? [])];
}

/** The caller of a route that is not public (the hook guarantees it). */
export function callerOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new HttpProblem('unauthorized');
  return request.auth;
}
