/**
 * The department picker every screen shares (employees, secretary offices, the correspondence forms'
 * sender, receiver and distribution): an antd TreeSelect over GET /ec/departments/options (open to any
 * signed-in user, unlike the tree of the departments screen; flat rows with parentId), names in the
 * interface language, search in both languages with Arabic normalised (tashkeel, hamza forms, ى/ي, ة/ه),
 * an internal/external filter, single or multiple choice, and a subtree that may be excluded (moving a
 * department under itself is meaningless).
 */
import { useMemo } from 'react';
import { TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DepartmentOption, DepartmentType } from '../../src-shared/api/directory';
import { normalizeArabic } from '../../src-shared/arabic';
import { directoryApi, directoryKeys, localName } from '../lib/directory-api';

/** A tree-select node; `search` holds both names normalised, so filtering is one `includes`. */
export interface DepartmentPickerNode {
  value: number;
  title: string;
  search: string;
  disabled?: boolean;
  children: DepartmentPickerNode[];
}

/**
 * Builds tree-select nodes from the flat picker rows (each with its parentId): names in `language`,
 * `excludeId` and its subtree left out. A row whose parent is not among the rows (an inactive parent)
 * becomes a root, so it can still be chosen.
 */
export function toPickerNodes(
  rows: readonly DepartmentOption[],
  language: string,
  { excludeId }: { excludeId?: number } = {},
): DepartmentPickerNode[] {
  const present = new Set(rows.map((r) => r.id));
  const byParent = new Map<number | null, DepartmentOption[]>();
  for (const row of rows) {
    const parent = row.parentId !== null && present.has(row.parentId) ? row.parentId : null;
    const siblings = byParent.get(parent) ?? [];
    siblings.push(row);
    byParent.set(parent, siblings);
  }
  const walk = (parent: number | null): DepartmentPickerNode[] =>
    (byParent.get(parent) ?? [])
      .filter((r) => r.id !== excludeId)
      .map((r) => ({
        value: r.id,
        title: localName(r, language),
        search: normalizeArabic(`${r.nameAr} ${r.nameEn}`),
        children: walk(r.id),
      }));
  return walk(null);
}

/** Whether a picker node matches the typed text in either language (Arabic normalised). */
export function departmentMatches(input: string, node: { search?: unknown }): boolean {
  const needle = normalizeArabic(input);
  return needle === '' || String(node.search ?? '').includes(needle);
}

export interface DepartmentPickerProps {
  value?: number | number[] | null;
  onChange?: (value: number | number[] | null) => void;
  /** Several departments (e.g. distribution). */
  multiple?: boolean;
  /** Only internal departments or only external entities; both when absent. */
  type?: DepartmentType;
  /** This department and its subtree are not offered (e.g. moving a department). */
  excludeId?: number;
  /** Offer inactive departments too (e.g. filters over history). */
  includeInactive?: boolean;
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  id?: string;
  'data-testid'?: string;
  'aria-label'?: string;
}

/** A department tree select (form control: `value`/`onChange`). */
export function DepartmentPicker({
  value,
  onChange,
  multiple = false,
  type,
  excludeId,
  includeInactive = false,
  placeholder,
  disabled,
  allowClear = true,
  id,
  'data-testid': testId = 'department-picker',
  'aria-label': ariaLabel,
}: DepartmentPickerProps) {
  const { t, i18n } = useTranslation('directory');
  const tree = useQuery({
    queryKey: [...directoryKeys.departmentOptions(type, includeInactive), i18n.language],
    queryFn: () => directoryApi.departmentOptions(type, includeInactive),
    staleTime: 30_000,
  });
  const treeData = useMemo(
    () => toPickerNodes(tree.data ?? [], i18n.language, { excludeId }),
    [tree.data, i18n.language, excludeId],
  );

  return (
    <TreeSelect<number | number[]>
      id={id}
      data-testid={testId}
      aria-label={ariaLabel}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      treeData={treeData}
      multiple={multiple}
      loading={tree.isLoading}
      disabled={disabled}
      allowClear={allowClear}
      placeholder={placeholder ?? t('pickers.department')}
      showSearch={{ filterTreeNode: (input, node) => departmentMatches(input, node as { search?: unknown }) }}
      treeDefaultExpandAll
      treeLine
      notFoundContent={t('empty.departments')}
      popupMatchSelectWidth={false}
      style={{ inlineSize: '100%' }}
      styles={{ popup: { root: { minInlineSize: 280, maxBlockSize: 400 } } }}
    />
  );
}
