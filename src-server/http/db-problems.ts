/**
 * The problems db/'s own errors answer (db/ knows nothing of HTTP): a list's bad sort, filter or cursor
 * is the caller's 400, with the field named, as when db/ threw problems itself.
 */
import { ListInputError } from '../db/errors';
import { tooDeep } from './json-depth';
import { HttpProblem } from './problem';

/** The problem of an error thrown by db/, or undefined when it is none of db/'s own. */
export function problemOfDbError(error: unknown): HttpProblem | undefined {
  if (!(error instanceof ListInputError)) return undefined;
  if (error.reason === 'tooDeep') return tooDeep(error.field);
  return new HttpProblem('badRequest', { fields: { [error.field]: [{ key: 'validation.invalid' }] } });
}
