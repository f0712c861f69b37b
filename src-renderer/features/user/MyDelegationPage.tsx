/**
 * Personal — my delegation (/user/delegation, issue 28): hand one's approvals, tasks or both to another
 * user for a date range; the delegations given and received, and ending one early (it takes effect at
 * once). The rules are the server's (src-server/modules/delegation/service.ts).
 */
import { Card, Flex } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  delegationEndpoints as E,
  type Delegation,
  type DelegationRequest,
} from '../../../src-shared/api/delegations';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { LoadFailed } from '../../components/LoadFailed';
import { call } from '../../lib/call';
import { DelegationForm, DelegationTable } from '../../components/Delegation';

const KEY = ['delegations', 'mine'] as const;

export function Component() {
  const { t } = useTranslation('delegations');
  const queryClient = useQueryClient();
  const mine = useQuery({ queryKey: KEY, queryFn: () => call(E.mine) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['delegations'] });
  const create = useMutation({
    mutationFn: (body: DelegationRequest) => call(E.create, { body }),
    onSuccess: () => {
      void refresh();
    },
  });
  const end = useMutation({
    mutationFn: (d: Delegation) => call(E.end, { params: { id: d.id } }),
    onSuccess: () => {
      void refresh();
    },
  });
  if (mine.isError) return <LoadFailed onRetry={() => void mine.refetch()} />;
  const data = mine.data;
  return (
    <CorrespondenceScreen testId="my-delegation" subtitle={t('my.description')}>
      <Flex vertical gap={16}>
        <Card size="small" title={t('my.new')}>
          {data && (
            <DelegationForm
              today={data.today}
              busy={create.isPending}
              onSubmit={({ delegatorId: _self, ...body }) => create.mutateAsync(body)}
            />
          )}
        </Card>
        <Card size="small" title={t('my.given')}>
          <DelegationTable
            testId="delegations-given"
            rows={data?.given ?? []}
            loading={mine.isLoading}
            show={{ delegator: false, delegate: true }}
            onEnd={(d) => end.mutate(d)}
            ending={end.isPending}
          />
        </Card>
        <Card size="small" title={t('my.received')}>
          <DelegationTable
            testId="delegations-received"
            rows={data?.received ?? []}
            loading={mine.isLoading}
            show={{ delegator: true, delegate: false }}
            onEnd={(d) => end.mutate(d)}
            ending={end.isPending}
          />
        </Card>
      </Flex>
    </CorrespondenceScreen>
  );
}
