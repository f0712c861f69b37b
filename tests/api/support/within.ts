/**
 * A deadline for a promise in a test (the worker pool tests use it): a broken part fails the test at once,
 * saying what it was waiting for, not at vitest's timeout.
 */

/** `promise`, or a failure after `ms` that names `what`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
