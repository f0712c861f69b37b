/**
 * The department picker every screen shares (employees, secretary offices, the correspondence forms'
 * sender, receiver and distribution): an antd TreeSelect over GET /ec/departments/tree, names in the
 * interface language, search in both languages with Arabic normalised (tashkeel, hamza forms, ى/ي, ة/ه),
 * an internal/external filter, single or multiple choice, and a subtree that may be excluded (moving a
 * department under itself is meaningless).
 */
import { useMemo } from 'react';
import { TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DepartmentTreeNode, DepartmentType } from '../../src-shared/api/directory';
import { normalizeArabic } from '../../src-shared/arabic';
import { directoryApi, directoryKeys, localName } from '../features/directory/api';

/** A tree-select node; `search` holds both names normalised, so filtering is one `includes`. */
export interface DepartmentPickerNode {
  value: number;
  title: string;
  search: string;
  disabled?: boolean;
  children: DepartmentPickerNode[];
}

/**
 * Turns the server's tree into tree-select nodes: names in `language`, inactive ones left out unless
 * asked for, `excludeId` and its subtree left out.
 */
export function toPickerNodes(
  roots: readonly DepartmentTreeNode[],
  language: string,
  { excludeId, includeInactive = false }: { excludeId?: number; includeInactive?: boolean } = {},
): DepartmentPickerNode[] {
  const walk = (nodes: readonly DepartmentTreeNode[]): DepartmentPickerNode[] =>
    nodes
      .filter((n) => n.id !== excludeId && (includeInactive || n.active))
      .map((n) => ({
        value: n.id,
        title: localName(n, language),
        search: normalizeArabic(`${n.nameAr} ${n.nameEn}`),
        children: walk(n.children),
      }));
  return walk(roots);
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
  const query = { ...(type ? { type } : {}) };
  const tree = useQuery({
    queryKey: directoryKeys.departmentTree(query),
    queryFn: () => directoryApi.departmentTree(query),
    staleTime: 30_000,
  });
  const treeData = useMemo(
    () => toPickerNodes(tree.data?.roots ?? [], i18n.language, { excludeId, includeInactive }),
    [tree.data, i18n.language, excludeId, includeInactive],
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
