/**
 * Documents chosen by search (GET /correspondence/documents/lookup: subject and numbers, every document the
 * caller may see), for moving documents into a file and placing legal holds; value: their ids.
 */
import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { recordsApi, recordsKeys } from '../../lib/records-api';

export function DocumentPicker({
  value,
  onChange,
  id,
  testId,
}: {
  value?: number[];
  onChange?: (value: number[]) => void;
  id?: string;
  testId?: string;
}) {
  const { t } = useTranslation('records');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [known, setKnown] = useState<Map<number, string>>(new Map());
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery({
    queryKey: recordsKeys.documents(q),
    queryFn: () => recordsApi.lookupDocuments(q),
  });
  const options = new Map(known);
  for (const d of found.data ?? []) options.set(d.id, `${d.docNumber ?? t('noNumber')} — ${d.subject}`);
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
      placeholder={t('documentSearch')}
      notFoundContent={t('noDocumentFound')}
      options={[...options].map(([docId, text]) => ({ value: docId, label: text }))}
    />
  );
}
