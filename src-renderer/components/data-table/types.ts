/**
 * The column declaration of the generic server-side table: every list screen describes its columns as
 * data (field, title key, sorting, filter kind and match modes, rendering) and DataTable does the rest.
 */
import type { ReactNode } from 'react';
import type { MatchMode } from '../../../src-shared/filters';
import type { FilterType } from './filterModel';

/** A choice of an enum or boolean filter; `label` is an i18n key (with its namespace, e.g. `admin:…`). */
export interface FilterOption {
  value: string | number;
  label: string;
}

/** How a column filters. */
export interface ColumnFilterSpec {
  type: FilterType;
  /** Restricts the match modes offered (else every mode of the type). */
  matchModes?: readonly MatchMode[];
  /** The choices of an `enum` filter (a `boolean` filter offers yes/no by itself). */
  options?: readonly FilterOption[];
  /** The field the filter is sent on, when it differs from the column's key (e.g. `roleId` for `role`). */
  field?: string;
}

/** One column of a DataTable. */
export interface DataTableColumn<T> {
  /** The API field: sorted by `sort=key`, filtered under `filters.key`, read from the row unless `render`. */
  key: string;
  /** The header's i18n key (with its namespace, e.g. `admin:users.columns.username`). */
  title: string;
  sortable?: boolean;
  filter?: ColumnFilterSpec;
  /** Renders the cell; by default the row's `key` property as text. */
  render?: (row: T) => ReactNode;
  /**
   * The column's comfortable width: it has it when the window has room and gives way (its text wrapping,
   * or cut with `ellipsis`) when not. Without one a column fits its content on one line (numbers, dates,
   * tags, short words): see DataTable's layout.
   */
  width?: number;
  align?: 'start' | 'center' | 'end';
  /** With a width: keeps the cell on one line, cut with an ellipsis, its full text as a tooltip. */
  ellipsis?: boolean;
  /**
   * The column that takes the room the others leave (the subject of a box, the name of a directory): one
   * line, cut with an ellipsis at its end, never narrower than 8rem (data-table.css). One per table; the first
   * column when none says so.
   */
  grow?: boolean;
  /** Not shown until the user picks it in the column chooser (what matters fits a 1280 px window). */
  hiddenByDefault?: boolean;
}

/** A page of a server-side list (API.md, "Lists"; the cursor `next` is sent back as `after`: paging.ts). */
export type { ListPage } from '../../../src-shared/api/envelope';
