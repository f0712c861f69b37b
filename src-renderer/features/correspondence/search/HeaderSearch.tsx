/**
 * The header's search box: Enter opens the search page with what was typed; meanwhile, after a pause in the
 * typing, it lists under the box the documents the words typed so far lead to (GET /search/suggest: a
 * number by its beginning, a subject by its words, the last one begun), and choosing one opens it.
 *
 * The list is our own panel under antd's plain search input, an ARIA combobox: the arrows move through the
 * suggestions, Enter opens the one chosen (or searches when none is), Escape, Tab and leaving the box close
 * the list, a click opens. The box's text changes only by the user: typing, choosing (it empties) — never
 * by an answer arriving (antd's AutoComplete around the input, tried before, lost spaces and moved the
 * caret under fast typing while suggestions were drawn). Only the answer for the text the box holds now is
 * shown: an answer for an earlier text is left unshown.
 */
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { Input } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { searchEndpoints, SUGGEST_MIN_CHARS, type Suggestion } from '../../../../src-shared/api/search';
import { PAGES } from '../../../../src-shared/pages';
import { call } from '../../../lib/call';
import { searchKeys } from '../documents/keys';
import './header-search.css';

/** How long typing pauses before suggestions are asked for. */
export const SUGGEST_PAUSE_MS = 150;

/** A subject's language and direction, from its first letter (a subject is written in one language or the other). */
function languageOf(text: string): { lang: 'ar' | 'en'; dir: 'rtl' | 'ltr' } {
  const first = /\p{L}/u.exec(text)?.[0];
  return first && /\p{Script=Arabic}/u.test(first) ? { lang: 'ar', dir: 'rtl' } : { lang: 'en', dir: 'ltr' };
}

/** The header's search box with its suggestions. */
export function HeaderSearch() {
  const { t } = useTranslation('search');
  const navigate = useNavigate();
  const location = useLocation();
  const listId = useId();
  const [text, setText] = useState('');
  // The text suggestions are asked for: the box's, once the typing pauses.
  const [asked, setAsked] = useState('');
  const [open, setOpen] = useState(false);
  // The suggestion the arrows are on, for the list of one text (another text: none).
  const [cursor, setCursor] = useState({ of: '', index: -1 });

  useEffect(() => {
    const timer = setTimeout(() => setAsked(text), SUGGEST_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const worthAsking = asked.trim().length >= SUGGEST_MIN_CHARS;
  const suggestions = useQuery({
    queryKey: searchKeys.suggest(asked),
    queryFn: () =>
      call(
        searchEndpoints.suggest,
        { query: { q: asked } },
        { suppressErrorToast: true, suppressSuccessToast: true },
      ),
    enabled: worthAsking,
    staleTime: 30_000,
  });
  // Only the answer for what the box holds now (no earlier answer is kept in its place).
  const items: Suggestion[] = worthAsking && asked === text ? (suggestions.data ?? []) : [];
  const shown = open && items.length > 0;
  const active = shown && cursor.of === asked && cursor.index < items.length ? cursor.index : -1;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const choose = (s: Suggestion) => {
    setText('');
    setOpen(false);
    void navigate(`${PAGES.search}/${s.documentId}`, {
      state: { back: `${location.pathname}${location.search}` },
    });
  };
  const move = (step: 1 | -1) => {
    // From none, down goes to the first and up to the last; past either end, round to the other.
    const next =
      active === -1 ? (step === 1 ? 0 : items.length - 1) : (active + step + items.length) % items.length;
    setCursor({ of: asked, index: next });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!items.length) return;
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setCursor({ of: asked, index: -1 });
        return;
      }
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Escape') {
      if (shown) {
        // The list closes; a dialog or drawer around the page stays open.
        event.preventDefault();
        event.stopPropagation();
      }
      setOpen(false);
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div className="header-search-box">
      <Input.Search
        className="header-search"
        allowClear
        maxLength={200}
        placeholder={t('box.placeholder')}
        aria-label={t('box.label')}
        role="combobox"
        aria-autocomplete="list"
        aria-haspopup="listbox"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onSearch={(value, _event, info) => {
          if (info?.source === 'clear') return setOpen(false);
          const chosen = active >= 0 ? items[active] : undefined;
          if (chosen) return choose(chosen);
          const q = value.trim();
          setOpen(false);
          if (q) void navigate(`${PAGES.search}?${new URLSearchParams({ q }).toString()}`);
        }}
        data-testid="header-search"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t('box.suggestions')}
        className="header-suggestions"
        hidden={!shown}
        data-testid="header-suggestions"
        // A press on the list keeps the focus in the box (its blur would close the list before the click).
        onMouseDown={(event) => event.preventDefault()}
      >
        {shown
          ? items.map((s, i) => {
              const subject = languageOf(s.subject);
              return (
                <li
                  key={s.documentId}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className="header-suggestion"
                  data-kind={s.kind}
                  data-testid="header-suggestion"
                  onClick={() => choose(s)}
                >
                  {s.docNumber ? (
                    <bdi
                      dir="ltr"
                      className="header-suggestion-number"
                      data-testid="header-suggestion-number"
                    >
                      {s.docNumber}
                    </bdi>
                  ) : null}
                  <span lang={subject.lang} dir={subject.dir} className="header-suggestion-subject">
                    {s.subject}
                  </span>
                </li>
              );
            })
          : null}
      </ul>
    </div>
  );
}
