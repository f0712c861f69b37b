/**
 * The specification's http helpers (section 7): get, post, put, delete and patch, each through main's
 * `api:request` channel (main adds the host, the token and the headers). Any non-GET success toasts the
 * server's `returnMessage` unless suppressed; every failure toasts per the error catalogue (section 8):
 * 401, 403 and 404 with fixed texts, anything else with the server's `detail` — unless the screen shows it
 * in place (a form marking the fields the server named: `ApiError.shownInPlace`, see toastFailure). The
 * toasts go through lib/toast.ts, which keeps them to one per user action and off open dialogs.
 */
import type { z } from 'zod';
import type { ApiRequest } from '../../src-shared/ipc/contract';
import type { Problem } from '../../src-shared/api/envelope';
import { getBridge } from './bridge';
import { i18n } from './i18n';
import { toast } from './toast';

export interface HttpOptions {
  /** Do not toast the success `returnMessage` (the specification's flag). */
  suppressSuccessToast?: boolean;
  /** Do not toast a failure (the caller shows it inline, e.g. field errors on a form). */
  suppressErrorToast?: boolean;
  query?: ApiRequest['query'];
  /**
   * The declared answer (lib/call.ts passes the endpoint's): a success's `data` is checked against it
   * before anything trusts or toasts it; another shape fails with the catalogue's unexpected-error text.
   */
  answer?: z.ZodType;
}

/** A failed call: the HTTP status (0 when main could not answer) and the problem details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> & { detail: string },
  ) {
    super(problem.detail);
  }
  /** Per-field messages from the server, for forms. */
  get fieldErrors(): Record<string, string[]> {
    return this.problem.errors ?? {};
  }
  /** The screen shows this failure in place (e.g. applyServerErrors marked the fields): no toast. */
  shownInPlace = false;
}

/**
 * Toasts a failure once the caller has had its turn (lib/toast.ts asks `dropIf` when it is about to show
 * it), so a screen that shows the failure in place — marking `shownInPlace` in its catch — is not
 * repeated by a toast.
 */
export function toastFailure(error: ApiError): void {
  toast({ severity: 'error', detail: error.problem.detail, dropIf: () => error.shownInPlace });
}

/** The catalogue's text for a failure (section 8). */
export function errorText(status: number, problem?: Partial<Problem>): string {
  if (status === 401) return i18n.t('errors.unauthorized');
  if (status === 403) return i18n.t('errors.forbidden');
  if (status === 404) return i18n.t('errors.notFound');
  return problem?.detail || i18n.t('errors.unexpected');
}

async function request<T>(
  method: ApiRequest['method'],
  path: string,
  body: unknown,
  options: HttpOptions = {},
): Promise<T> {
  const result = await getBridge().apiRequest({
    method,
    path,
    ...(options.query ? { query: options.query } : {}),
    ...(body !== undefined ? { body } : {}),
  });
  if (!result.ok) {
    const detail = i18n.t(result.error.code, { defaultValue: i18n.t('errors.unexpected') });
    // A read while the server is away: the offline banner says it once, and the screen says what could
    // not load; a toast for every list and card would bury the page. An action the user took is told.
    const quietRead = method === 'GET' && result.error.code === 'ipc.serverUnreachable';
    const error = new ApiError(0, { detail, code: result.error.code });
    if (!options.suppressErrorToast && !quietRead) toastFailure(error);
    throw error;
  }
  const { status, body: answer } = result.data;
  if (status >= 200 && status < 300) {
    const envelope = (answer ?? {}) as { data: T; returnMessage?: string };
    let data = envelope.data;
    if (options.answer) {
      const checked = options.answer.safeParse(envelope.data);
      if (!checked.success) {
        // An answer of another shape than declared is a failure, never trusted as if it were right.
        const error = new ApiError(status, { detail: i18n.t('errors.unexpected'), code: 'answerMismatch' });
        if (!options.suppressErrorToast) toastFailure(error);
        throw error;
      }
      data = checked.data as T;
    }
    if (method !== 'GET' && !options.suppressSuccessToast && envelope.returnMessage) {
      toast({ severity: 'success', detail: envelope.returnMessage });
    }
    return data;
  }
  const problem = (answer && typeof answer === 'object' ? answer : {}) as Partial<Problem>;
  const detail = errorText(status, problem);
  const error = new ApiError(status, { ...problem, detail });
  // A 401 is handled by the session:expired event (main clears the session and the app redirects).
  if (!options.suppressErrorToast && status !== 401) toastFailure(error);
  throw error;
}

export const http = {
  get: <T>(path: string, options?: HttpOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: HttpOptions) =>
    request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: HttpOptions) =>
    request<T>('PUT', path, body ?? {}, options),
  patch: <T>(path: string, body?: unknown, options?: HttpOptions) =>
    request<T>('PATCH', path, body ?? {}, options),
  delete: <T>(path: string, options?: HttpOptions) => request<T>('DELETE', path, undefined, options),
};
