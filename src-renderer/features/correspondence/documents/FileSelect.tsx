/**
 * The document form's File field (records management, issue 31): a searchable select over the open files
 * (GET /records/files/open, searched on the server by code and title), value the file's id. A draft kept
 * on this desk before files existed may still name its file by code in the old free-text `grouping`: the
 * select then shows that code until another file is chosen (the server maps the code when the draft is
 * sent; an unknown one comes back as the server's error on this field).
 */
import { useEffect, useState } from 'react';
import { Form, Select } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fileTitle, recordsApi, recordsKeys } from '../../../lib/records-api';

/** A file as the select shows it. */
export interface FileOption {
  id: number;
  code: string;
  titleAr: string;
  titleEn: string;
}

export function FileSelect({
  value,
  onChange,
  id,
  testId,
  initial,
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
  testId?: string;
  /** The file the document is in already (shown even when it is closed or not among the first found). */
  initial?: FileOption | null;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  // A search per pause in typing, not per key.
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const found = useQuery({
    queryKey: recordsKeys.openFiles(q),
    queryFn: () => recordsApi.openFiles(q),
    placeholderData: keepPreviousData,
  });
  const form = Form.useFormInstance() as ReturnType<typeof Form.useFormInstance> | undefined;
  const legacyCode = (Form.useWatch('grouping', form) as string | undefined)?.trim() || null;
  const files: FileOption[] = [...(found.data ?? [])];
  if (initial && !files.some((f) => f.id === initial.id)) files.unshift(initial);
  const label = (f: FileOption) => `${f.code} — ${fileTitle(f, i18n.language)}`;
  return (
    <Select<number>
      id={id}
      data-testid={testId}
      showSearch
      filterOption={false}
      onSearch={setSearch}
      allowClear
      value={value ?? undefined}
      onChange={(next) => {
        // A file chosen from the list replaces the code an older draft named it by.
        if (legacyCode && form) form.setFieldValue('grouping', undefined);
        onChange?.(next ?? null);
      }}
      onClear={() => {
        if (legacyCode && form) form.setFieldValue('grouping', undefined);
      }}
      loading={found.isFetching}
      placeholder={legacyCode && !value ? t('fields.fileByCode', { code: legacyCode }) : t('form.choose')}
      notFoundContent={found.isFetching ? null : t('fields.noOpenFile')}
      options={files.map((f) => ({ value: f.id, label: <bdi>{label(f)}</bdi>, title: label(f) }))}
    />
  );
}
