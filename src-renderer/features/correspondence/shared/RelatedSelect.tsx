/**
 * Search and link related documents: a select searching the incoming box on the server (subject,
 * numbers, sender's number) as the user types; value is the chosen documents' ids.
 */
import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import type { ListPage } from '../../../components/DataTable';
import { http } from '../../../lib/http';
import { boxEndpoint, corrKeys } from './api';

/** A multiple select of documents to relate (form control: `value`/`onChange`), `excludeId` left out. */
export function RelatedSelect({
  value,
  onChange,
  excludeId,
  id,
  testId,
}: {
  value?: number[];
  onChange?: (value: number[]) => void;
  excludeId?: number;
  id?: string;
  testId?: string;
}) {
  const { t } = useTranslation('correspondence');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [known, setKnown] = useState<Map<number, string>>(new Map());
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery({
    queryKey: corrKeys.search(q),
    queryFn: () =>
      http.get<ListPage<BoxItem>>(boxEndpoint('incoming'), {
        query: { page: 1, pageSize: 20, ...(q ? { q } : {}), sort: '-boxDate' },
      }),
  });
  const label = (item: BoxItem) => `${item.docNumber ?? t('document.noNumber')} — ${item.subject}`;
  const options = new Map<number, string>(known);
  for (const item of found.data?.items ?? []) {
    if (item.documentId !== excludeId) options.set(item.documentId, label(item));
  }
  return (
    <Select<number[]>
      id={id}
      data-testid={testId}
      mode="multiple"
      value={value ?? []}
      onChange={(next) => {
        setKnown(new Map([...options].filter(([docId]) => next.includes(docId))));
        onChange?.(next);
      }}
      filterOption={false}
      showSearch={{ onSearch: setTyped, filterOption: false }}
      loading={found.isFetching}
      placeholder={t('form.relatedPlaceholder')}
      notFoundContent={t('empty.documents')}
      options={[...options].map(([docId, text]) => ({ value: docId, label: text }))}
    />
  );
}
