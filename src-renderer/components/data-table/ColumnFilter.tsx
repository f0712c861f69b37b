/**
 * The filter dropdown of one DataTable column: the specification's filter model (section 9) edited in
 * place — for each constraint a match mode and a value, "add constraint", and the and/or operator that
 * joins them. The panel edits a draft and hands it back only on Apply, so half-typed values never hit
 * the server.
 */
import { useState } from 'react';
import { Button, DatePicker, Divider, Flex, Input, InputNumber, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { MatchMode } from '../../../src-shared/filters';
import {
  MAX_CONSTRAINTS,
  emptyColumnFilter,
  emptyConstraint,
  matchModesFor,
  type ColumnFilterState,
  type FilterConstraint,
  type FilterOperator,
  type FilterValue,
} from './filterModel';
import type { ColumnFilterSpec } from './types';
import { DATE_FORMAT } from './format';

export interface ColumnFilterProps {
  /** The column's key, used in test ids and labels. */
  columnKey: string;
  /** The column's localised title, for accessible names. */
  columnTitle: string;
  spec: ColumnFilterSpec;
  /** The filter currently applied to the table, if any. */
  applied: ColumnFilterState | undefined;
  /** Applies a filter, or removes the column's filter when undefined. */
  onApply: (state: ColumnFilterState | undefined) => void;
  /** Closes the dropdown. */
  close: () => void;
}

/** The editor of one constraint's value, chosen by the filter's type. */
function ValueEditor({
  spec,
  value,
  onChange,
  label,
  testId,
  onEnter,
}: {
  spec: ColumnFilterSpec;
  value: FilterValue;
  onChange: (value: FilterValue) => void;
  label: string;
  testId: string;
  onEnter: () => void;
}) {
  const { t } = useTranslation('table');
  const common = { 'aria-label': label, 'data-testid': testId, className: 'data-table-filter-value' };
  switch (spec.type) {
    case 'number':
      return (
        <InputNumber
          {...common}
          value={typeof value === 'number' ? value : null}
          onChange={(v) => onChange(typeof v === 'number' ? v : null)}
          onPressEnter={onEnter}
          placeholder={t('filter.valuePlaceholder')}
        />
      );
    case 'date':
      return (
        <DatePicker
          {...common}
          value={typeof value === 'string' && value ? dayjs(value) : null}
          format={DATE_FORMAT}
          onChange={(d) => onChange(d ? d.format('YYYY-MM-DD') : null)}
          placeholder={t('filter.datePlaceholder')}
        />
      );
    case 'boolean':
      return (
        // antd's Select holds strings and numbers only: yes/no travel as text and become booleans here.
        <Select<'true' | 'false'>
          {...common}
          value={typeof value === 'boolean' ? (String(value) as 'true' | 'false') : undefined}
          onChange={(v) => onChange(v === undefined ? null : v === 'true')}
          placeholder={t('filter.choosePlaceholder')}
          options={[
            { value: 'true', label: t('filter.yes') },
            { value: 'false', label: t('filter.no') },
          ]}
        />
      );
    case 'enum':
      return (
        <Select<string | number>
          {...common}
          showSearch={{ optionFilterProp: 'label' }}
          value={typeof value === 'string' || typeof value === 'number' ? value : undefined}
          onChange={(v) => onChange(v ?? null)}
          placeholder={t('filter.choosePlaceholder')}
          options={(spec.options ?? []).map((o) => ({ value: o.value, label: t(o.label) }))}
        />
      );
    default:
      return (
        <Input
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
          onPressEnter={onEnter}
          placeholder={t('filter.valuePlaceholder')}
          allowClear
        />
      );
  }
}

/** The filter panel shown in a column header's dropdown. */
export function ColumnFilter({ columnKey, columnTitle, spec, applied, onApply, close }: ColumnFilterProps) {
  const { t } = useTranslation('table');
  const modes = matchModesFor(spec.type, spec.matchModes);
  const [draft, setDraft] = useState<ColumnFilterState>(() =>
    applied ? structuredClone(applied) : emptyColumnFilter(spec.type, spec.matchModes),
  );

  const update = (index: number, patch: Partial<FilterConstraint>) =>
    setDraft((d) => ({
      ...d,
      constraints: d.constraints.map((c, i) => (i === index ? { ...c, ...patch } : c)),
    }));
  const remove = (index: number) =>
    setDraft((d) => ({ ...d, constraints: d.constraints.filter((_, i) => i !== index) }));
  const add = () =>
    setDraft((d) => ({ ...d, constraints: [...d.constraints, emptyConstraint(spec.type, spec.matchModes)] }));

  const apply = () => {
    onApply(draft);
    close();
  };
  const clear = () => {
    setDraft(emptyColumnFilter(spec.type, spec.matchModes));
    onApply(undefined);
    close();
  };

  return (
    <div
      className="data-table-filter"
      data-testid={`filter-panel-${columnKey}`}
      onKeyDown={(e) => e.stopPropagation()}
    >
      {draft.constraints.length > 1 && (
        <>
          <Select<FilterOperator>
            aria-label={t('filter.operator')}
            data-testid="filter-operator"
            className="data-table-filter-operator"
            value={draft.operator}
            onChange={(operator) => setDraft((d) => ({ ...d, operator }))}
            options={[
              { value: 'and', label: t('filter.and') },
              { value: 'or', label: t('filter.or') },
            ]}
          />
          <Divider className="data-table-filter-divider" />
        </>
      )}
      <Flex vertical gap={12}>
        {draft.constraints.map((constraint, index) => (
          <Flex vertical gap={6} key={index} data-testid={`filter-constraint-${index}`}>
            {modes.length > 1 && (
              <Select<MatchMode>
                aria-label={t('filter.matchMode', { column: columnTitle })}
                data-testid={`filter-match-mode-${index}`}
                value={constraint.matchMode}
                onChange={(matchMode) => update(index, { matchMode })}
                options={modes.map((m) => ({ value: m, label: t(`matchMode.${m}`) }))}
              />
            )}
            <Space.Compact block>
              <ValueEditor
                spec={spec}
                value={constraint.value}
                onChange={(value) => update(index, { value })}
                label={t('filter.value', { column: columnTitle })}
                testId={`filter-value-${index}`}
                onEnter={apply}
              />
              {draft.constraints.length > 1 && (
                <Button
                  aria-label={t('filter.removeConstraint')}
                  title={t('filter.removeConstraint')}
                  icon={<DeleteOutlined />}
                  onClick={() => remove(index)}
                  danger
                />
              )}
            </Space.Compact>
          </Flex>
        ))}
      </Flex>
      {spec.type !== 'boolean' && draft.constraints.length < MAX_CONSTRAINTS && (
        <Button
          type="link"
          icon={<PlusOutlined />}
          onClick={add}
          data-testid="filter-add"
          className="data-table-filter-add"
        >
          {t('filter.addConstraint')}
        </Button>
      )}
      <Flex justify="space-between" gap={8} className="data-table-filter-footer">
        <Button size="small" onClick={clear} data-testid="filter-clear">
          {t('filter.clear')}
        </Button>
        <Button size="small" type="primary" onClick={apply} data-testid="filter-apply">
          {t('filter.apply')}
        </Button>
      </Flex>
    </div>
  );
}
