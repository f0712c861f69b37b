/**
 * Which columns of a list the user chose to see, kept per list on this desk (localStorage): at 1280 px a
 * wide list can hide what this user does not need, so what matters stays in view. The first column (what
 * identifies a row) is always shown; until the user chooses, the columns a list marks `hiddenByDefault`
 * are hidden.
 */
import { useCallback, useState } from 'react';

const PREFIX = 'sijill.columns.';

/** The user's hidden columns of a list, or null when they never chose (the list's defaults apply). */
function read(listId: string): string[] | null {
  try {
    const raw = localStorage.getItem(PREFIX + listId);
    if (raw === null) return null;
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : null;
  } catch {
    return null;
  }
}

/** The hidden column keys of a list (the user's choice, else `defaults`), and a toggle that remembers it. */
export function useColumnChoice(
  listId: string,
  defaults: readonly string[] = [],
): {
  hidden: ReadonlySet<string>;
  toggle(key: string): void;
  reset(): void;
} {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set(read(listId) ?? defaults));
  const save = useCallback(
    (next: Set<string>) => {
      setHidden(next);
      try {
        localStorage.setItem(PREFIX + listId, JSON.stringify([...next]));
      } catch {
        // storage unavailable: the choice lasts until the screen closes
      }
    },
    [listId],
  );
  return {
    hidden,
    toggle: (key) => {
      const next = new Set(hidden);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      save(next);
    },
    reset: () => save(new Set(defaults)),
  };
}
