/**
 * Search (search/documents): one query across every document the user may see — number, references,
 * subject, summary, sender, receivers, notes and the text of attachments — with filters (direction, state,
 * dates, codification, department, security level), results ranked by the server (number matches first),
 * the matched words marked in their passages, paged on the server. The query and filters live in the
 * address (`?q=…&direction=…`), so the header's box, Back from a document and a reload all land here.
 * Filters without words list what they keep, newest first (a dashboard's figure opens its list here:
 * `?direction=in&fromDate=…&departmentId=…`); the hint shows only when there are neither.
 */
import type { ReactNode } from 'react';
import {
  Alert,
  Button,
  DatePicker,
  Empty,
  Flex,
  Input,
  List,
  Pagination,
  Result,
  Select,
  Tag,
  Typography,
} from 'antd';
import { FilePdfOutlined, NumberOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import { DIRECTIONS, type Direction } from '../../../../src-shared/api/correspondence';
import {
  SEARCH_PAGE_SIZE,
  SEARCH_STATES,
  type SearchState,
  searchEndpoints,
  type SearchHit,
  type SearchPage,
  type SearchSnippet,
} from '../../../../src-shared/api/search';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { DATE_FORMAT, formatDate } from '../../../components/DataTable';
import { LoadFailed } from '../../../components/LoadFailed';
import { call } from '../../../lib/call';
import { localName } from '../../../lib/names';
import { SettingSelect } from '../documents/SettingSelect';
import { DepartmentSelect } from '../documents/pickers';
import { PAGES } from '../../../../src-shared/pages';
import './search.css';
import { searchKeys } from '../documents/keys';

/** The filters the address may carry, by their parameter name. */
const FILTER_PARAMS = [
  'direction',
  'state',
  'fromDate',
  'toDate',
  'codificationId',
  'departmentId',
  'securityLevelId',
] as const;

export { searchKeys };

/** Text with its matched words marked. */
export function Highlighted({ text, highlights }: { text: string; highlights: [number, number][] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  highlights.forEach(([start, end], i) => {
    if (start < at) return;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={i} className="search-mark">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

function Passage({ s }: { s: SearchSnippet }) {
  const { t } = useTranslation('search');
  const label = s.attachment
    ? t('field.attachment', { file: s.attachment.fileName, page: s.attachment.page })
    : t(`field.${s.field}`);
  return (
    <div className="search-passage" data-testid={`search-passage-${s.field}`}>
      <Typography.Text type="secondary" className="search-passage-label">
        {s.attachment ? <FilePdfOutlined /> : null} <bdi>{label}</bdi>
      </Typography.Text>
      <span className="search-passage-text" dir="auto">
        {s.before ? '… ' : ''}
        <Highlighted text={s.text} highlights={s.highlights} />
        {s.after ? ' …' : ''}
      </span>
    </div>
  );
}

/**
 * What the search did with the words typed: those left out as too common, those no document has (left
 * out), or that the documents shown have only most of the words. Each word is quoted and isolated, so an
 * English word in an Arabic sentence (or the reverse) reads in its place.
 */
function QueryNotes({ data }: { data: SearchPage | undefined }) {
  const { t, i18n } = useTranslation('search');
  if (!data) return null;
  const words = (list: string[]) =>
    new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
      list.map((word) =>
        t('page.quoted', { word: `\u2068${word}\u2069`, interpolation: { escapeValue: false } }),
      ),
    );
  const notes: { key: string; text: string }[] = [];
  if (data.missing.length)
    notes.push({
      key: 'missing',
      text: t('page.missing', { words: words(data.missing), count: data.missing.length }),
    });
  if (data.partial) notes.push({ key: 'partial', text: t('page.partial') });
  // Common words left out are said only when nothing was found: on every search they would be noise.
  if (data.ignored.length && data.terms.length && data.total === 0)
    notes.push({ key: 'ignored', text: t('page.ignored', { words: words(data.ignored) }) });
  if (!notes.length) return null;
  return (
    <Flex vertical gap={4} data-testid="search-notes">
      {notes.map((n) => (
        <Alert key={n.key} type="info" showIcon message={n.text} data-testid={`search-note-${n.key}`} />
      ))}
    </Flex>
  );
}

function Hit({ hit, back }: { hit: SearchHit; back: string }) {
  const { t, i18n } = useTranslation('search');
  const { t: tc } = useTranslation('correspondence');
  const subject = hit.snippets.find((s) => s.field === 'subject');
  const sender = hit.snippets.find((s) => s.field === 'sender');
  const passages = hit.snippets.filter((s) => s.field !== 'subject' && s.field !== 'sender').slice(0, 3);
  return (
    <List.Item className="search-hit" data-testid="search-hit">
      <div className="search-hit-body">
        <Flex gap={8} wrap align="center" className="search-hit-meta">
          <Tag color="geekblue">{tc(`direction.${hit.direction}`)}</Tag>
          <Tag>{t(`state.${hit.state}`)}</Tag>
          {hit.docNumber ? (
            <bdi className="corr-number" data-testid="search-hit-number">
              {hit.docNumber}
            </bdi>
          ) : (
            <Typography.Text type="secondary">{tc('document.noNumber')}</Typography.Text>
          )}
          {hit.numberMatch ? (
            <Tag color="green" icon={<NumberOutlined />} data-testid="search-number-match">
              {t('page.numberMatch')}
            </Tag>
          ) : null}
          {hit.securityLevel ? <Tag color="red">{localName(hit.securityLevel, i18n.language)}</Tag> : null}
          <Typography.Text type="secondary">{formatDate(hit.date, i18n.language)}</Typography.Text>
        </Flex>
        <Link
          to={`${PAGES.search}/${hit.documentId}`}
          state={{ back }}
          className="search-hit-subject"
          data-testid="search-hit-link"
          aria-label={t('page.open', { subject: hit.subject })}
        >
          <span dir="auto">
            {subject ? <Highlighted text={subject.text} highlights={subject.highlights} /> : hit.subject}
          </span>
        </Link>
        {hit.sender ? (
          <Typography.Text type="secondary" className="search-hit-sender">
            {tc('fields.sender')}:{' '}
            <bdi>
              {sender ? (
                <Highlighted text={sender.text} highlights={sender.highlights} />
              ) : (
                localName(hit.sender, i18n.language)
              )}
            </bdi>
          </Typography.Text>
        ) : null}
        {passages.map((s, i) => (
          <Passage key={i} s={s} />
        ))}
      </div>
    </List.Item>
  );
}

/** The route's screen. */
export function Component() {
  const { t } = useTranslation('search');
  const { t: tc } = useTranslation('correspondence');
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const q = params.get('q')?.trim() ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters = Object.fromEntries(
    FILTER_PARAMS.flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : [])),
  ) as Partial<Record<(typeof FILTER_PARAMS)[number], string>>;
  const hasFilters = Object.keys(filters).length > 0;
  const queryString = new URLSearchParams({
    ...(q ? { q } : {}),
    page: String(page),
    pageSize: String(SEARCH_PAGE_SIZE),
    ...filters,
  }).toString();
  const answer = useQuery({
    queryKey: searchKeys.query(queryString),
    queryFn: () =>
      call(searchEndpoints.search, { query: Object.fromEntries(new URLSearchParams(queryString)) }),
    enabled: q.length > 0 || hasFilters,
    placeholderData: keepPreviousData,
  });

  /** Changes parameters (a new query or filter goes back to the first page). */
  const update = (changes: Record<string, string | null>, keepPage = false) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!keepPage) next.delete('page');
    setParams(next);
  };
  const numberParam = (k: string) => (params.get(k) ? Number(params.get(k)) : null);
  const data = answer.data;
  const back = `${location.pathname}${location.search}`;

  return (
    <CorrespondenceScreen testId="search-screen">
      <Flex vertical gap={12}>
        <Input.Search
          key={q}
          defaultValue={q}
          size="large"
          allowClear
          enterButton={t('page.button')}
          placeholder={t('page.placeholder')}
          aria-label={t('box.label')}
          maxLength={200}
          onSearch={(value) => update({ q: value.trim() || null })}
          loading={answer.isFetching}
          data-testid="search-input"
        />
        <Flex gap={8} wrap align="center" className="search-filters" data-testid="search-filters">
          <Select<Direction>
            allowClear
            className="search-filter"
            placeholder={t('filter.direction')}
            aria-label={t('filter.direction')}
            value={(filters.direction as Direction | undefined) ?? undefined}
            onChange={(v) => update({ direction: v ?? null })}
            options={DIRECTIONS.map((d) => ({ value: d, label: tc(`direction.${d}`) }))}
            data-testid="search-filter-direction"
          />
          <Select<SearchState>
            allowClear
            className="search-filter"
            placeholder={t('filter.state')}
            aria-label={t('filter.state')}
            value={(filters.state as SearchState | undefined) ?? undefined}
            onChange={(v) => update({ state: v ?? null })}
            options={SEARCH_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
            data-testid="search-filter-state"
          />
          <DatePicker.RangePicker
            aria-label={t('filter.dates')}
            format={DATE_FORMAT}
            allowEmpty={[true, true]}
            placeholder={[tc('dateRange.from'), tc('dateRange.to')]}
            value={[
              filters.fromDate ? dayjs(filters.fromDate) : null,
              filters.toDate ? dayjs(filters.toDate) : null,
            ]}
            onChange={(values) => {
              const [from, to] = (values ?? [null, null]) as [Dayjs | null, Dayjs | null];
              update({
                fromDate: from ? from.format('YYYY-MM-DD') : null,
                toDate: to ? to.format('YYYY-MM-DD') : null,
              });
            }}
            data-testid="search-filter-dates"
          />
          <div className="search-filter" title={t('filter.codification')}>
            <SettingSelect
              list="codifications"
              value={numberParam('codificationId')}
              onChange={(v) => update({ codificationId: v === null ? null : String(v) })}
              testId="search-filter-codification"
              placeholder={t('filter.codification')}
            />
          </div>
          <div className="search-filter search-filter-wide" title={t('filter.department')}>
            <DepartmentSelect
              value={numberParam('departmentId')}
              onChange={(v) => update({ departmentId: v === null ? null : String(v) })}
              placeholder={t('filter.department')}
              testId="search-filter-department"
            />
          </div>
          <div className="search-filter" title={t('filter.securityLevel')}>
            <SettingSelect
              list="security-levels"
              value={numberParam('securityLevelId')}
              onChange={(v) => update({ securityLevelId: v === null ? null : String(v) })}
              testId="search-filter-security"
              placeholder={t('filter.securityLevel')}
            />
          </div>
          {hasFilters ? (
            <Button
              type="link"
              onClick={() => update(Object.fromEntries(FILTER_PARAMS.map((k) => [k, null])))}
              data-testid="search-clear-filters"
            >
              {t('page.clear')}
            </Button>
          ) : null}
        </Flex>
        {!q && !hasFilters ? (
          <Empty description={t('page.hint')} data-testid="search-hint" />
        ) : answer.isError && !data ? (
          <LoadFailed onRetry={() => void answer.refetch()} />
        ) : q && data && data.terms.length === 0 && data.total === 0 ? (
          <Result status="info" title={t('page.noTerms')} data-testid="search-no-terms" />
        ) : (
          <>
            <QueryNotes data={data} />
            {data ? (
              <Typography.Text type="secondary" data-testid="search-total">
                {data.totalExact
                  ? t('page.resultsCount', { count: data.total })
                  : t('page.resultsMore', { count: data.total })}
              </Typography.Text>
            ) : null}
            <List
              loading={answer.isLoading}
              dataSource={data?.items ?? []}
              locale={{
                emptyText: (
                  <Empty
                    description={q ? t('page.noResults', { q }) : t('page.noResultsFiltered')}
                    data-testid="search-empty"
                  />
                ),
              }}
              renderItem={(hit) => <Hit key={hit.documentId} hit={hit} back={back} />}
              data-testid="search-results"
            />
            {data && data.total > data.pageSize ? (
              <Pagination
                align="center"
                current={page}
                pageSize={data.pageSize}
                total={data.total}
                showSizeChanger={false}
                onChange={(next) => update({ page: String(next) }, true)}
                data-testid="search-pagination"
              />
            ) : null}
          </>
        )}
      </Flex>
    </CorrespondenceScreen>
  );
}
