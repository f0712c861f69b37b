/**
 * The five settings lists of the specification (section 3), declared as data for the one generic
 * list-and-form block (SettingsListScreen, docs/style.md: no copy-pasted CRUD). Each declaration says where
 * the list lives, which fields its form has and how each shows as a column; everything else is shared.
 */
import type { Direction, SettingsList } from '../../../../src-shared/api/correspondence';
import type { MatchMode } from '../../../../src-shared/filters';

/** The directions a codification numbers (section 3: in, out, internal, memo); the server's list. */
export const DIRECTIONS = ['in', 'out', 'internal', 'memo'] as const satisfies readonly Direction[];

/** How a field is edited and shown. */
export type SettingsFieldKind = 'text' | 'ltrText' | 'level' | 'direction' | 'department';

/** One field of a settings list: its API name, its kind, and whether the form requires it. */
export interface SettingsField {
  /** The API field (body and row), e.g. `nameAr`, `level`, `departmentId`. */
  name: string;
  kind: SettingsFieldKind;
  required: boolean;
  /** The i18n key of its label and column title, under `correspondence:settings.fields`. */
  label: string;
  /** Maximum length of a text field. */
  max?: number;
  /** A pattern the value must match (message: `validation.<patternMessage>`). */
  pattern?: RegExp;
  patternMessage?: string;
  /** The column: sortable and filterable on the server (defaults: both). */
  sortable?: boolean;
  matchModes?: readonly MatchMode[];
}

/** The keys of the five lists (also their i18n keys under `correspondence:settings.lists`). */
export type SettingsListKey =
  'mediums' | 'priorities' | 'securityLevels' | 'codifications' | 'mainDistribution';

/** A settings list: its API path, its fields, its default order and its empty message. */
export interface SettingsListSpec {
  key: SettingsListKey;
  /** The list's path segment: docs/api.md `/correspondence/settings/<list>`. */
  list: SettingsList;
  fields: readonly SettingsField[];
  defaultSort: string;
  /** The test id prefix of the screen and its controls. */
  testId: string;
}

const NAME_FIELDS: readonly SettingsField[] = [
  { name: 'nameAr', kind: 'text', required: true, label: 'nameAr', max: 200 },
  { name: 'nameEn', kind: 'text', required: true, label: 'nameEn', max: 200 },
];

const LEVEL_FIELD: SettingsField = { name: 'level', kind: 'level', required: true, label: 'level' };

/** Every settings list, keyed. */
export const SETTINGS_LISTS: Record<SettingsListKey, SettingsListSpec> = {
  mediums: {
    key: 'mediums',
    list: 'mediums',
    fields: NAME_FIELDS,
    defaultSort: 'nameAr',
    testId: 'settings-mediums',
  },
  priorities: {
    key: 'priorities',
    list: 'priorities',
    fields: [...NAME_FIELDS, LEVEL_FIELD],
    defaultSort: 'level',
    testId: 'settings-priorities',
  },
  securityLevels: {
    key: 'securityLevels',
    list: 'security-levels',
    fields: [...NAME_FIELDS, LEVEL_FIELD],
    defaultSort: 'level',
    testId: 'settings-security-levels',
  },
  codifications: {
    key: 'codifications',
    list: 'codifications',
    fields: [
      ...NAME_FIELDS,
      {
        name: 'prefix',
        kind: 'ltrText',
        required: true,
        label: 'prefix',
        max: 10,
        // The server's prefix rule: capital letters and digits, starting with a letter (IN, OUT, M2).
        pattern: /^[A-Z][A-Z0-9]*$/,
        patternMessage: 'prefix',
      },
      { name: 'direction', kind: 'direction', required: true, label: 'direction' },
    ],
    defaultSort: 'prefix',
    testId: 'settings-codifications',
  },
  mainDistribution: {
    key: 'mainDistribution',
    list: 'main-distribution',
    fields: [
      { name: 'departmentId', kind: 'department', required: true, label: 'department', sortable: false },
      // The order the departments are offered in when distributing.
      { name: 'order', kind: 'level', required: false, label: 'order' },
    ],
    defaultSort: 'order',
    testId: 'settings-main-distribution',
  },
};
