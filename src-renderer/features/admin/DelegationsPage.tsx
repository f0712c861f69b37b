/**
 * Administration — delegations (/auth/delegations, issue 28): every delegation, filtered by person, state
 * and scope; making one for someone who is away (add) and ending any at once (edit).
 */
import { useState } from 'react';
import { Card, Flex, Select } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DELEGATION_SCOPES,
  DELEGATION_STATES,
  delegationEndpoints as E,
  type Delegation,
  type DelegationForRequest,
  type DelegationScope,
  type DelegationState,
} from '../../../src-shared/api/delegations';
import { PAGES } from '../../../src-shared/pages';
import { useCanOn } from '../../app/permissions';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { LoadFailed } from '../../components/LoadFailed';
import { call } from '../../lib/call';
import { DelegationForm, DelegationTable, PersonSelect } from '../../components/Delegation';

export function Component() {
  const { t } = useTranslation('delegations');
  const queryClient = useQueryClient();
  const mayAdd = useCanOn(PAGES.delegations, 'add');
  const mayEnd = useCanOn(PAGES.delegations, 'edit');
  const [userId, setUserId] = useState<number | undefined>();
  const [state, setState] = useState<DelegationState | undefined>('inForce');
  const [scope, setScope] = useState<DelegationScope | undefined>();
  const query = { userId, state, scope };
  const list = useQuery({
    queryKey: ['delegations', 'all', query],
    queryFn: () => call(E.list, { query }),
  });
  const mine = useQuery({ queryKey: ['delegations', 'mine'], queryFn: () => call(E.mine) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['delegations'] });
  const create = useMutation({
    mutationFn: (body: DelegationForRequest) => call(E.createFor, { body }),
    onSuccess: () => {
      void refresh();
    },
  });
  const end = useMutation({
    mutationFn: (d: Delegation) => call(E.endAny, { params: { id: d.id } }),
    onSuccess: () => {
      void refresh();
    },
  });
  if (list.isError) return <LoadFailed onRetry={() => void list.refetch()} />;
  return (
    <CorrespondenceScreen testId="admin-delegations" subtitle={t('admin.description')}>
      <Flex vertical gap={16}>
        {mayAdd && mine.data && (
          <Card size="small" title={t('admin.new')}>
            <DelegationForm
              withDelegator
              today={mine.data.today}
              busy={create.isPending}
              onSubmit={(body) => create.mutateAsync(body)}
            />
          </Card>
        )}
        <Card size="small" title={t('admin.list')}>
          <Flex gap={8} wrap>
            <div style={{ minInlineSize: 200 }}>
              <PersonSelect testId="delegations-filter-person" value={userId} onChange={setUserId} />
            </div>
            <Select<DelegationState>
              allowClear
              value={state}
              onChange={setState}
              placeholder={t('columns.state')}
              options={DELEGATION_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
              data-testid="delegations-filter-state"
              style={{ minInlineSize: 200 }}
            />
            <Select<DelegationScope>
              allowClear
              value={scope}
              onChange={setScope}
              placeholder={t('columns.scope')}
              options={DELEGATION_SCOPES.map((s) => ({ value: s, label: t(`scopes.${s}`) }))}
              style={{ minInlineSize: 200 }}
            />
          </Flex>
          <DelegationTable
            testId="delegations-all"
            rows={list.data ?? []}
            loading={list.isLoading}
            show={{ delegator: true, delegate: true }}
            {...(mayEnd ? { onEnd: (d: Delegation) => end.mutate(d), ending: end.isPending } : {})}
          />
        </Card>
      </Flex>
    </CorrespondenceScreen>
  );
}
