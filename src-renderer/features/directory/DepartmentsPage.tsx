/**
 * Employee Centre — departments (/ec/departments): the organisation tree with search in both languages
 * (the server normalises Arabic and answers matches with their ancestors), an internal/external switch,
 * add main department, add a department under a node, edit (moving it under another parent), activate
 * or deactivate (optionally with its sub-departments), configure (archive office, manager, secretary
 * office), its approval circuits, and — on an entity (or a main department) — who holds signing authority
 * for it. The tree sits at the inline start and the selected department's details at the inline end,
 * so both directions read naturally.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  App,
  Button,
  Checkbox,
  Descriptions,
  Empty,
  Flex,
  Input,
  Segmented,
  Space,
  Spin,
  Switch,
  Tag,
  Tree,
  Typography,
} from 'antd';
import {
  AuditOutlined,
  ApartmentOutlined,
  BankOutlined,
  CheckCircleOutlined,
  EditOutlined,
  PlusOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DepartmentTreeNode, DepartmentType } from '../../../src-shared/api/directory';
import type { Permission } from '../../../src-shared/permissions';
import { directoryApi, directoryKeys, localName, otherName } from '../../lib/directory-api';
import { CircuitTemplateModal } from './CircuitTemplateModal';
import { SigningAuthorityModal } from './SigningAuthorityModal';
import { ConfigureDepartmentModal, DepartmentFormModal, type DepartmentFormMode } from './DepartmentDialogs';
import { DirectoryScreen } from './DirectoryScreen';
import { useDirectoryCan } from './usePermission';
import { LoadFailed } from '../../components/LoadFailed';

const SEARCH_DEBOUNCE_MS = 300;

/** Every node id of a tree (to expand it all) and a lookup by id. */
function indexTree(roots: readonly DepartmentTreeNode[]) {
  const ids: number[] = [];
  const byId = new Map<number, DepartmentTreeNode>();
  const walk = (nodes: readonly DepartmentTreeNode[]) => {
    for (const n of nodes) {
      ids.push(n.id);
      byId.set(n.id, n);
      walk(n.children);
    }
  };
  walk(roots);
  return { ids, byId };
}

interface TreeItem {
  key: number;
  title: ReactNode;
  children: TreeItem[];
}

/** The departments screen. `permissions` overrides the current page permissions (tests). */
export function DepartmentsPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t, i18n } = useTranslation('directory');
  const can = useDirectoryCan(permissions);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [type, setType] = useState<DepartmentType>('internal');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [showInactive, setShowInactive] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [formMode, setFormMode] = useState<DepartmentFormMode | null>(null);
  const [configuring, setConfiguring] = useState<number | null>(null);
  const [circuitOf, setCircuitOf] = useState<number | null>(null);
  const [signingOf, setSigningOf] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<number[] | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const query = { type, ...(q ? { q } : {}), ...(showInactive ? {} : { active: 'true' as const }) };
  const tree = useQuery({
    queryKey: directoryKeys.departmentTree(query),
    queryFn: () => directoryApi.departmentTree(query),
  });
  const roots = useMemo(() => tree.data?.roots ?? [], [tree.data]);
  const index = useMemo(() => indexTree(roots), [roots]);
  const selected = selectedId !== null ? (index.byId.get(selectedId) ?? null) : null;
  const detail = useQuery({
    queryKey: directoryKeys.department(selectedId ?? 0),
    queryFn: () => directoryApi.department(selectedId!),
    enabled: selectedId !== null,
  });

  // A new answer (search, type, a change) shows the whole tree open; the user may fold it after.
  useEffect(() => setExpanded(null), [tree.data]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: directoryKeys.all });

  const treeData = useMemo(() => {
    const build = (nodes: readonly DepartmentTreeNode[]): TreeItem[] =>
      nodes.map((n) => ({
        key: n.id,
        title: (
          <span
            className={`directory-tree-title${n.active ? '' : ' is-inactive'}`}
            data-testid={`department-node-${n.nameEn}`}
          >
            {q && n.matched ? <mark>{localName(n, i18n.language)}</mark> : localName(n, i18n.language)}
            {n.isEntity && <BankOutlined aria-label={t('departments.fields.isEntity')} />}
            {!n.active && <Tag>{t('status.inactive')}</Tag>}
          </span>
        ),
        children: build(n.children),
      }));
    return build(roots);
  }, [roots, q, i18n.language, t]);

  const confirmActive = (node: DepartmentTreeNode) => {
    const activate = !node.active;
    const name = localName(node, i18n.language);
    const hasActiveChildren = node.children.some((c) => c.active);
    let cascade = false;
    modal.confirm({
      title: t(activate ? 'departments.activateTitle' : 'departments.deactivateTitle', { name }),
      content: (
        <Space orientation="vertical">
          <span>{t(activate ? 'departments.activateBody' : 'departments.deactivateBody')}</span>
          {!activate && hasActiveChildren && (
            <Checkbox data-testid="department-cascade" onChange={(e) => (cascade = e.target.checked)}>
              {t('departments.cascade')}
            </Checkbox>
          )}
        </Space>
      ),
      okText: t(activate ? 'actions.activate' : 'actions.deactivate'),
      okButtonProps: { danger: !activate, 'data-testid': 'department-active-confirm' } as { danger: boolean },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await directoryApi.setDepartmentActive(node.id, activate, cascade);
        refresh();
      },
    });
  };

  const dept = detail.data;
  const other = otherName(selected, i18n.language);

  return (
    <DirectoryScreen
      title={t('departments.title')}
      description={t('departments.description')}
      testId="directory-departments"
    >
      <Flex className="directory-tree-toolbar" gap={8} wrap justify="space-between" align="center">
        <Flex gap={8} wrap align="center">
          <Segmented<DepartmentType>
            value={type}
            onChange={(v) => {
              setType(v);
              setSelectedId(null);
            }}
            options={[
              { value: 'internal', label: t('departments.internal'), icon: <ApartmentOutlined /> },
              { value: 'external', label: t('departments.external'), icon: <BankOutlined /> },
            ]}
            data-testid="department-type-switch"
          />
          <Input.Search
            allowClear
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onSearch={(v) => setQ(v.trim())}
            placeholder={t('departments.search')}
            aria-label={t('departments.search')}
            style={{ inlineSize: 280 }}
            data-testid="department-search"
          />
          <Space size={6}>
            <Switch
              size="small"
              checked={showInactive}
              onChange={setShowInactive}
              data-testid="department-show-inactive"
            />
            <span>{t('departments.showInactive')}</span>
          </Space>
        </Flex>
        {can('add') && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setFormMode({ kind: 'main', type })}
            data-testid="department-add-main"
          >
            {t(type === 'external' ? 'departments.addMainExternal' : 'departments.addMain')}
          </Button>
        )}
      </Flex>
      <div className="directory-tree-layout">
        <div data-testid="department-tree">
          {tree.isLoading ? (
            <Spin />
          ) : tree.isError && !tree.data ? (
            <LoadFailed onRetry={() => void tree.refetch()} testId="department-tree-failed" />
          ) : roots.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={<span data-testid="department-tree-empty">{t('empty.departments')}</span>}
            />
          ) : (
            <Tree<TreeItem>
              className="directory-tree"
              treeData={treeData}
              showLine
              blockNode
              expandedKeys={expanded ?? index.ids}
              onExpand={(keys) => setExpanded(keys as number[])}
              selectedKeys={selectedId !== null ? [selectedId] : []}
              // Clicking the selected node again keeps it selected: the details stay in view.
              onSelect={(keys) => keys.length > 0 && setSelectedId(Number(keys[0]))}
            />
          )}
        </div>
        <div data-testid="department-detail">
          {!selected ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('departments.select')} />
          ) : (
            <>
              <Typography.Title
                level={4}
                style={{ marginBlockStart: 0 }}
                data-testid="department-detail-title"
              >
                {localName(selected, i18n.language)}
              </Typography.Title>
              <Typography.Paragraph type="secondary">
                {/* bdi, not dir on the paragraph: the other script keeps its direction but not its alignment. */}
                <bdi lang={other.lang} dir={other.dir}>
                  {other.text}
                </bdi>
              </Typography.Paragraph>
              <Flex gap={8} wrap style={{ marginBlockEnd: 16 }}>
                {can('add') && selected.active && (
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => setFormMode({ kind: 'child', parent: selected })}
                    data-testid="department-add-child"
                  >
                    {t('departments.addChild')}
                  </Button>
                )}
                {can('edit') && (
                  <Button
                    icon={<EditOutlined />}
                    onClick={() => setFormMode({ kind: 'edit', id: selected.id })}
                    data-testid="department-edit"
                  >
                    {t('actions.edit')}
                  </Button>
                )}
                {can('edit') && selected.type === 'internal' && (
                  <Button
                    icon={<SettingOutlined />}
                    onClick={() => setConfiguring(selected.id)}
                    data-testid="department-configure"
                  >
                    {t('actions.configure')}
                  </Button>
                )}
                {can('edit') && selected.type === 'internal' && (
                  <Button
                    icon={<AuditOutlined />}
                    onClick={() => setCircuitOf(selected.id)}
                    data-testid="department-circuit"
                  >
                    {t('correspondence:circuit.templateAction')}
                  </Button>
                )}
                {selected.type === 'internal' && (selected.isEntity || selected.parentId === null) && (
                  <Button
                    icon={<SafetyCertificateOutlined />}
                    onClick={() => setSigningOf(selected.id)}
                    data-testid="department-signing"
                  >
                    {t('signing.action')}
                  </Button>
                )}
                {can('activate') && (
                  <Button
                    danger={selected.active}
                    icon={selected.active ? <StopOutlined /> : <CheckCircleOutlined />}
                    onClick={() => confirmActive(selected)}
                    data-testid="department-toggle-active"
                  >
                    {t(selected.active ? 'actions.deactivate' : 'actions.activate')}
                  </Button>
                )}
              </Flex>
              <Descriptions column={1} size="small" bordered>
                <Descriptions.Item label={t('departments.fields.type')}>
                  {t(`departments.types.${selected.type}`)}
                  {selected.isEntity && (
                    <Tag style={{ marginInlineStart: 8 }}>{t('departments.fields.isEntity')}</Tag>
                  )}
                </Descriptions.Item>
                <Descriptions.Item label={t('departments.fields.status')}>
                  {selected.active ? (
                    <Tag color="green">{t('status.active')}</Tag>
                  ) : (
                    <Tag>{t('status.inactive')}</Tag>
                  )}
                </Descriptions.Item>
                <Descriptions.Item label={t('departments.fields.parent')}>
                  {dept?.parent ? localName(dept.parent, i18n.language) : t('departments.fields.parentNone')}
                </Descriptions.Item>
                <Descriptions.Item label={t('departments.fields.archiveType')}>
                  {t(`departments.archiveTypes.${selected.archiveType}`)}
                </Descriptions.Item>
                {selected.type === 'internal' && (
                  <>
                    <Descriptions.Item label={t('departments.fields.archiveOffice')}>
                      {dept?.archiveOffice ? localName(dept.archiveOffice, i18n.language) : '—'}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('departments.fields.manager')}>
                      <span data-testid="department-detail-manager">
                        {dept?.manager ? localName(dept.manager, i18n.language) : '—'}
                      </span>
                    </Descriptions.Item>
                    <Descriptions.Item label={t('departments.fields.secretary')}>
                      {dept?.secretaryOffice ? localName(dept.secretaryOffice.secretary, i18n.language) : '—'}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('departments.fields.employees')}>
                      <bdi>{dept?.employeeCount ?? '—'}</bdi>
                    </Descriptions.Item>
                  </>
                )}
                <Descriptions.Item label={t('departments.fields.children')}>
                  <bdi>{dept?.childCount ?? selected.children.length}</bdi>
                </Descriptions.Item>
              </Descriptions>
            </>
          )}
        </div>
      </div>
      <DepartmentFormModal
        mode={formMode}
        onClose={() => setFormMode(null)}
        onDone={(saved) => {
          setFormMode(null);
          setSelectedId(saved.id);
          refresh();
        }}
      />
      <CircuitTemplateModal departmentId={circuitOf} onClose={() => setCircuitOf(null)} />
      <SigningAuthorityModal
        departmentId={signingOf}
        canEdit={can('edit')}
        onClose={() => setSigningOf(null)}
      />
      <ConfigureDepartmentModal
        departmentId={configuring}
        onClose={() => setConfiguring(null)}
        onDone={() => {
          setConfiguring(null);
          refresh();
        }}
      />
    </DirectoryScreen>
  );
}

/** The route module of /ec/departments. */
export function Component() {
  return <DepartmentsPage />;
}
