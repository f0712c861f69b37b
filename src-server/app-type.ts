/**
 * The app's type as every module sees it, and what a module and a job registration are. In a file of its
 * own so a module's routes need not import app.ts (which imports every module).
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerContext } from './context';

/** The app with the zod type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * A feature module: a Fastify plugin registered under its URL prefix (its own encapsulated instance), with
 * the server context. Its routes come from the endpoints of src-shared/api (http/route.ts), whose full
 * paths start with `prefix`.
 */
export interface AppModule {
  name: string;
  /** Every path of the module starts with it ('' for a module spread over several roots). */
  prefix: string;
  routes: (app: App, ctx: ServerContext) => Promise<void> | void;
}

/**
 * Background work of a module: registers its job handlers on `ctx.jobs` and the app hooks that go with
 * them (work queued again at start, helpers closed with the app). Registered on the root app, before
 * the worker starts.
 */
export type JobRegistration = (app: App, ctx: ServerContext) => void;
