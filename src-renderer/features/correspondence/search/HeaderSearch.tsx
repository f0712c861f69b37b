/**
 * The header's search box: Enter opens the search page with what was typed; meanwhile it suggests the
 * documents the words typed so far lead to (GET /search/suggest: a number by its beginning, a subject by
 * its words, the last one begun), and choosing one opens it.
 */
import { useEffect, useState } from 'react';
import { AutoComplete, Flex, Input, Tag } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { searchEndpoints } from '../../../../src-shared/api/search';
import { PAGES } from '../../../../src-shared/pages';
import { call } from '../../../lib/call';
import { searchKeys } from '../documents/keys';

/** How long typing pauses before suggestions are asked for. */
const PAUSE_MS = 150;

export function HeaderSearch() {
  const { t } = useTranslation('search');
  const navigate = useNavigate();
  const location = useLocation();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAsked(text.trimStart()), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const suggestions = useQuery({
    queryKey: searchKeys.suggest(asked),
    queryFn: () =>
      call(
        searchEndpoints.suggest,
        { query: { q: asked } },
        { suppressErrorToast: true, suppressSuccessToast: true },
      ),
    enabled: asked.trim().length >= 2,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  const options =
    asked.trim().length >= 2
      ? (suggestions.data ?? []).map((s) => ({
          value: String(s.documentId),
          label: (
            <Flex gap={8} align="center" className="header-suggestion" data-testid="header-suggestion">
              {s.docNumber ? (
                <Tag color={s.kind === 'number' ? 'blue' : undefined}>
                  <bdi>{s.docNumber}</bdi>
                </Tag>
              ) : null}
              <span dir="auto" className="header-suggestion-subject">
                {s.subject}
              </span>
            </Flex>
          ),
        }))
      : [];

  return (
    <AutoComplete
      className="header-search"
      options={options}
      value={text}
      onChange={(value: string) => setText(value)}
      onSelect={(id: string) => {
        setText('');
        void navigate(`${PAGES.search}/${id}`, { state: { back: `${location.pathname}${location.search}` } });
      }}
      popupMatchSelectWidth={420}
      // Enter searches what was typed; a suggestion is chosen by the arrows or a click.
      defaultActiveFirstOption={false}
      aria-label={t('box.label')}
    >
      <Input.Search
        allowClear
        maxLength={200}
        placeholder={t('box.placeholder')}
        aria-label={t('box.label')}
        onSearch={(value) => {
          const q = value.trim();
          if (q) void navigate(`${PAGES.search}?${new URLSearchParams({ q }).toString()}`);
        }}
        data-testid="header-search"
      />
    </AutoComplete>
  );
}
