/**
 * The hash router. Every route is loaded on demand (its own chunk).
 */
import { createHashRouter, type RouteObject } from 'react-router-dom';

export const routes: RouteObject[] = [
  {
    path: '/',
    lazy: async () => ({ Component: (await import('../features/start/StartPage')).StartPage }),
  },
];

export function createRouter() {
  return createHashRouter(routes);
}
