/**
 * Text of two directions side by side, read in the right order (Unicode's bidirectional algorithm, UAX #9).
 * A value set inside a sentence or a cell of the other direction — a number, a phone number, a path, a file
 * name, a name in the other script — is isolated from the words around it, so its neighbours (a space
 * between two numbers, a slash, a bracket) do not join the wrong side:
 * - `Ltr`: a value that reads left to right in every language and stays whole on one line (numbers, phone
 *   numbers, dates, registration numbers, file and folder names, usernames, emails);
 * - `Auto`: text of either script (a subject, a name, a note), its direction its own first letter's;
 * - `Sentence`: a translated sentence whose interpolated values are each isolated.
 */
import { Fragment, type ReactNode } from 'react';
import type { TFunction } from 'i18next';

/** A value that reads left to right in both languages and never breaks across lines. */
export function Ltr({ children, className }: { children?: ReactNode; className?: string }) {
  return (
    <bdi dir="ltr" className={className ? `ltr-value ${className}` : 'ltr-value'}>
      {children}
    </bdi>
  );
}

/** Text of either script, isolated, in the direction of its first strong letter (left to right without one). */
export function Auto({ children }: { children: ReactNode }) {
  return <bdi>{children}</bdi>;
}

/** Placeholders for the values in the translated text: characters no translation or value holds. */
const MARK = '\u2063';
const MARKED = new RegExp(`${MARK}(\\d+)${MARK}`);

/**
 * A translated sentence with each interpolated value isolated from its words: a text value in an `Auto`,
 * an element (e.g. `<Ltr>`) as given. `count` (plural choice) and `options` are passed to i18next as they
 * are and not isolated.
 */
export function Sentence({
  t,
  i18nKey,
  values = {},
  count,
  options = {},
}: {
  t: TFunction | ((key: string, options?: Record<string, unknown>) => string);
  i18nKey: string;
  values?: Record<string, ReactNode>;
  count?: number;
  options?: Record<string, unknown>;
}) {
  const names = Object.keys(values);
  const marked = Object.fromEntries(names.map((name, i) => [name, `${MARK}${i}${MARK}`]));
  const text = (t as (key: string, options?: Record<string, unknown>) => string)(i18nKey, {
    ...options,
    ...marked,
    ...(count !== undefined ? { count } : {}),
  });
  const parts = text.split(MARKED);
  return (
    <>
      {parts.map((part, i) => {
        if (i % 2 === 0) return part ? <Fragment key={i}>{part}</Fragment> : null;
        const value = values[names[Number(part)]!];
        return (
          <Fragment key={i}>
            {typeof value === 'string' || typeof value === 'number' ? <Auto>{value}</Auto> : value}
          </Fragment>
        );
      })}
    </>
  );
}
