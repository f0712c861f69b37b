/**
 * Route access declarations. Every route says in its `config.access` who may call it: `public`,
 * `authenticated` (any signed-in user), or a page path and the permission it needs on that page.
 * One hook enforces it (the server core adds it), and a test fails if a route lacks a declaration.
 */
import type { Permission } from '../../src-shared/permissions';

export type RouteAccess = 'public' | 'authenticated' | { page: string; permission: Permission };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
