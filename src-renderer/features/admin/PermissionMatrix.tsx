/**
 * The page-permission matrix editor of a role: rows are the sections and their pages (GET
 * /auth/roles/{id}/permissions brings the tree with the matrix), columns the permissions pages offer.
 * Cells check and uncheck; a row's "all" box and each column header select all at once (a section's
 * row acts on its pages). Saved with PUT /auth/roles/{id}/permissions, replacing the whole matrix.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Modal, Skeleton, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminPage, AdminSection, Role } from '../../../src-shared/api/admin';
import { PERMISSIONS, type Permission } from '../../../src-shared/permissions';
import { adminApi, adminKeys } from '../../lib/admin-api';
import {
  columnState,
  entriesOf,
  matrixOf,
  pagesOf,
  rowState,
  sameGrants,
  setColumn,
  setRow,
  setRows,
  toggle,
  type CheckState,
  type Matrix,
} from './matrix';
import { localName } from '../../lib/names';

type MatrixRow =
  | { kind: 'section'; key: string; section: AdminSection }
  | { kind: 'page'; key: string; page: AdminPage; section: AdminSection };

/** A checkbox over a tri-state. */
function TriState({
  state,
  onChange,
  label,
  disabled,
  testId,
}: {
  state: CheckState;
  onChange: (on: boolean) => void;
  label: string;
  disabled: boolean;
  testId: string;
}) {
  return (
    <Checkbox
      checked={state === 'all'}
      indeterminate={state === 'some'}
      onChange={(e) => onChange(e.target.checked)}
      disabled={disabled}
      aria-label={label}
      title={label}
      data-testid={testId}
    />
  );
}

/** The matrix of one role, in a wide dialog. `readOnly` when the caller may not edit roles. */
export function PermissionMatrixModal({
  role,
  readOnly,
  onClose,
}: {
  role: Role | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const queryClient = useQueryClient();
  const roleId = role?.id ?? 0;
  const loaded = useQuery({
    queryKey: adminKeys.rolePermissions(roleId),
    queryFn: () => adminApi.rolePermissions(roleId),
    enabled: role !== null,
    staleTime: 0,
  });
  const [matrix, setMatrix] = useState<Matrix>({});
  const [saving, setSaving] = useState(false);

  const sections = useMemo(() => loaded.data?.pages ?? [], [loaded.data]);
  const pages = useMemo(() => pagesOf(sections), [sections]);
  const initial = useMemo(() => matrixOf(loaded.data?.entries ?? []), [loaded.data]);
  useEffect(() => setMatrix(initial), [initial]);

  // Only the permissions some page offers get a column.
  const offered = PERMISSIONS.filter((p) => pages.some((page) => page.availablePermissions.includes(p)));
  const locked = readOnly || !!role?.isSystem;
  const changed = !sameGrants(matrix, initial, pages);
  const name = (item: { nameAr: string; nameEn: string }) => localName(item, i18n.language);
  const permissionName = (p: Permission) => t(`permissions.${p}`);

  const rows: MatrixRow[] = sections.flatMap((section) => [
    { kind: 'section' as const, key: `s${section.id}`, section },
    ...section.children.map((page) => ({ kind: 'page' as const, key: `p${page.id}`, page, section })),
  ]);

  const columns: ColumnsType<MatrixRow> = [
    {
      key: 'page',
      title: t('matrix.page'),
      className: 'admin-matrix-page',
      fixed: 'start',
      render: (_, row) =>
        row.kind === 'section' ? (
          name(row.section)
        ) : (
          <span style={{ paddingInlineStart: 20 }}>{name(row.page)}</span>
        ),
    },
    {
      key: 'all',
      title: (
        <div className="admin-matrix-head">
          <span>{t('matrix.all')}</span>
          <TriState
            state={columnState(matrix, pages)}
            onChange={(on) => setMatrix((m) => setRows(m, pages, on))}
            label={t('matrix.allEverywhere')}
            disabled={locked}
            testId="matrix-all"
          />
        </div>
      ),
      width: 72,
      render: (_, row) => {
        if (row.kind === 'section') {
          return (
            <TriState
              state={columnState(matrix, row.section.children)}
              onChange={(on) => setMatrix((m) => setRows(m, row.section.children, on))}
              label={t('matrix.allOf', { name: name(row.section) })}
              disabled={locked || row.section.children.length === 0}
              testId={`matrix-row-${row.section.path}`}
            />
          );
        }
        return (
          <TriState
            state={rowState(matrix, row.page)}
            onChange={(on) => setMatrix((m) => setRow(m, row.page, on))}
            label={t('matrix.allOf', { name: name(row.page) })}
            disabled={locked}
            testId={`matrix-row-${row.page.path}`}
          />
        );
      },
    },
    ...offered.map((permission) => ({
      key: permission,
      width: 96,
      title: (
        <div className="admin-matrix-head">
          <span>{permissionName(permission)}</span>
          <TriState
            state={columnState(matrix, pages, permission)}
            onChange={(on) => setMatrix((m) => setColumn(m, pages, permission, on))}
            label={t('matrix.columnAll', { permission: permissionName(permission) })}
            disabled={locked}
            testId={`matrix-col-${permission}`}
          />
        </div>
      ),
      render: (_: unknown, row: MatrixRow) => {
        if (row.kind === 'section') {
          const children = row.section.children.filter((p) => p.availablePermissions.includes(permission));
          if (children.length === 0) return null;
          return (
            <TriState
              state={columnState(matrix, children, permission)}
              onChange={(on) => setMatrix((m) => setColumn(m, children, permission, on))}
              label={`${name(row.section)}: ${permissionName(permission)}`}
              disabled={locked}
              testId={`matrix-cell-${row.section.path}-${permission}`}
            />
          );
        }
        if (!row.page.availablePermissions.includes(permission)) {
          return (
            <span className="admin-muted" aria-label={t('matrix.notOffered')}>
              —
            </span>
          );
        }
        return (
          <Checkbox
            checked={(matrix[row.page.id] ?? []).includes(permission)}
            onChange={(e) => setMatrix((m) => toggle(m, row.page, permission, e.target.checked))}
            disabled={locked}
            aria-label={`${name(row.page)}: ${permissionName(permission)}`}
            data-testid={`matrix-cell-${row.page.path}-${permission}`}
          />
        );
      },
    })),
  ];

  const save = async () => {
    if (!role) return;
    setSaving(true);
    try {
      const saved = await adminApi.setRolePermissions(role.id, {
        entries: entriesOf(matrix, pages, loaded.data?.entries),
      });
      queryClient.setQueryData(adminKeys.rolePermissions(role.id), saved);
      onClose();
    } catch {
      // The http helper has toasted the failure; the edits stay on screen to retry.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={role !== null}
      title={t('matrix.title', { name: role ? name(role) : '' })}
      onCancel={onClose}
      width={1040}
      style={{ insetBlockStart: 24 }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {locked ? t('actions.close') : t('actions.cancel')}
        </Button>,
        ...(locked
          ? []
          : [
              <Button key="reset" onClick={() => setMatrix(initial)} disabled={!changed}>
                {t('matrix.undo')}
              </Button>,
              <Button
                key="save"
                type="primary"
                loading={saving}
                disabled={!changed}
                onClick={() => void save()}
                data-testid="matrix-save"
              >
                {t('actions.save')}
              </Button>,
            ]),
      ]}
    >
      <div data-testid="permission-matrix">
        {role?.isSystem && (
          <Alert type="info" showIcon title={t('matrix.systemRole')} style={{ marginBlockEnd: 12 }} />
        )}
        {!role?.isSystem && (
          <Alert type="info" showIcon title={t('matrix.hint')} style={{ marginBlockEnd: 12 }} />
        )}
        {loaded.isLoading ? (
          <Skeleton active />
        ) : (
          <Table<MatrixRow>
            className="admin-matrix"
            size="small"
            bordered
            pagination={false}
            rowKey="key"
            columns={columns}
            dataSource={rows}
            rowClassName={(row) => (row.kind === 'section' ? 'admin-matrix-section' : '')}
            // The dialog's chrome (title, hint, header row, footer) takes about 330px of the window.
            scroll={{ x: 'max-content', y: 'calc(100vh - 360px)' }}
          />
        )}
      </div>
    </Modal>
  );
}
