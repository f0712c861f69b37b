/**
 * A multiple select of documents found as the user types (GET /correspondence/documents/lookup: subject,
 * numbers, the sender's number; every document the caller may see, any direction); value: their ids.
 * The correspondence form's related documents and the records screens (moving documents into a file,
 * placing a legal hold) are this control with their own words.
 */
import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { correspondenceEndpoints } from '../../src-shared/api/correspondence-endpoints';
import { call } from '../lib/call';

interface Found {
  id: number;
  docNumber: string | null;
  subject: string;
}

export function DocumentSearchSelect({
  value,
  onChange,
  excludeId,
  initial,
  id,
  testId,
  placeholder,
  notFound,
  noNumber,
}: {
  value?: number[];
  onChange?: (value: number[]) => void;
  /** A document never offered (the one being edited). */
  excludeId?: number;
  /** Documents already chosen, labelled before any search. */
  initial?: readonly Found[];
  id?: string;
  testId?: string;
  placeholder: string;
  notFound: string;
  /** What stands for the number of a document that has none yet. */
  noNumber: string;
}) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [known, setKnown] = useState<Map<number, string>>(new Map());
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery({
    queryKey: ['document-lookup', q],
    queryFn: () => call(correspondenceEndpoints.lookup, { query: q ? { q } : {} }),
  });
  const label = (item: Found) => `${item.docNumber ?? noNumber} — ${item.subject}`;
  const options = new Map<number, string>([
    ...(initial ?? []).map((r) => [r.id, label(r)] as const),
    ...known,
  ]);
  for (const item of found.data ?? []) if (item.id !== excludeId) options.set(item.id, label(item));
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
      placeholder={placeholder}
      notFoundContent={notFound}
      options={[...options].map(([docId, text]) => ({ value: docId, label: text }))}
    />
  );
}
