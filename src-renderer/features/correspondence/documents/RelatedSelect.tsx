/**
 * Search and link related documents: a select searching, as the user types, every document the user may
 * see (GET /correspondence/documents/lookup: subject, numbers, sender's number; any direction — a reply
 * links the incoming letter it answers); value is the chosen documents' ids.
 */
import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RelatedDocument } from '../../../../src-shared/api/correspondence';
import { corrKeys, documentsApi } from './api';

/** A multiple select of documents to relate (form control: `value`/`onChange`), `excludeId` left out. */
export function RelatedSelect({
  value,
  onChange,
  excludeId,
  id,
  testId,
  initial,
}: {
  /** Documents already linked (their labels before any search). */
  initial?: readonly RelatedDocument[];
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
    queryFn: () => documentsApi.lookup(q),
  });
  const label = (item: RelatedDocument) => `${item.docNumber ?? t('document.noNumber')} — ${item.subject}`;
  const options = new Map<number, string>([
    ...(initial ?? []).map((r) => [r.id, label(r)] as const),
    ...known,
  ]);
  for (const item of found.data ?? []) {
    if (item.id !== excludeId) options.set(item.id, label(item));
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
