/**
 * The employee picker every screen shares (a department's manager and secretary, later tasks and
 * approvals): an antd Select searching GET /ec/employees/options on the server as the user types (the
 * server normalises Arabic), optionally within one department, names in the interface language.
 */
import { useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EmployeeOption, NamedRef } from '../../src-shared/api/directory';
import { directoryApi, directoryKeys, localName } from '../lib/directory-api';

const SEARCH_DEBOUNCE_MS = 300;

export interface EmployeePickerProps {
  value?: number | null;
  onChange?: (value: number | null, option?: EmployeeOption) => void;
  /** Only employees of this department. */
  departmentId?: number;
  /** The employee currently chosen, so its name shows before any search (e.g. editing). */
  current?: NamedRef | null;
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  id?: string;
  'data-testid'?: string;
  'aria-label'?: string;
}

/** An employee select with server-side search (form control: `value`/`onChange`). */
export function EmployeePicker({
  value,
  onChange,
  departmentId,
  current,
  placeholder,
  disabled,
  allowClear = true,
  id,
  'data-testid': testId = 'employee-picker',
  'aria-label': ariaLabel,
}: EmployeePickerProps) {
  const { t, i18n } = useTranslation('directory');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const result = useQuery({
    queryKey: [...directoryKeys.employeeOptions(q, departmentId), i18n.language],
    queryFn: () => directoryApi.employeeOptions(q, departmentId),
    staleTime: 15_000,
  });
  const rows = useMemo(() => result.data ?? [], [result.data]);
  const options = useMemo(() => {
    const list = rows.map((e) => ({ value: e.id, label: localName(e, i18n.language) }));
    if (current && !list.some((o) => o.value === current.id)) {
      list.unshift({ value: current.id, label: localName(current, i18n.language) });
    }
    return list;
  }, [rows, current, i18n.language]);

  return (
    <Select<number>
      id={id}
      data-testid={testId}
      aria-label={ariaLabel}
      value={value ?? undefined}
      onChange={(next) =>
        onChange?.(
          next ?? null,
          rows.find((r) => r.id === next),
        )
      }
      options={options}
      loading={result.isFetching}
      disabled={disabled}
      allowClear={allowClear}
      placeholder={placeholder ?? t('pickers.employee')}
      // The server filters (and normalises Arabic); the client shows what it answered.
      showSearch={{ filterOption: false, onSearch: setTyped }}
      notFoundContent={t('empty.employees')}
      style={{ inlineSize: '100%' }}
    />
  );
}
