/**
 * What the delegation screens share (issue 28): the "on behalf of" tag (boxes put it before the subject), the person
 * picker of active users, the scope and state tags, and the table of delegations.
 */
import { useState } from 'react';
import { Button, DatePicker, Form, Input, Popconfirm, Radio, Select, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  DELEGATION_SCOPES,
  delegationEndpoints as E,
  type DelegationForRequest,
  type Delegation,
  type DelegationPerson,
  type DelegationState,
} from '../../src-shared/api/delegations';
import type { DelegationScope } from '../../src-shared/api/notifications-kinds';
import { DATE_FORMAT, formatDate } from './DataTable';
import { call } from '../lib/call';
import { applyServerErrors, useLocalisedForm } from '../lib/forms';
import { localName } from '../lib/names';

/** "On behalf of <name>": a delegate's item of their delegator. */
export function OnBehalfTag({ person }: { person: { nameAr: string; nameEn: string } }) {
  const { t, i18n } = useTranslation('delegations');
  return (
    <Tag color="purple" data-testid="on-behalf-of">
      {t('onBehalfOf', { name: localName(person, i18n.language) })}
    </Tag>
  );
}

const STATE_COLORS: Record<DelegationState, string> = { upcoming: 'blue', inForce: 'green', over: 'default' };

export function StateTag({ state }: { state: DelegationState }) {
  const { t } = useTranslation('delegations');
  return (
    <Tag color={STATE_COLORS[state]} data-testid={`delegation-state-${state}`}>
      {t(`states.${state}`)}
    </Tag>
  );
}

export function ScopeTag({ scope }: { scope: DelegationScope }) {
  const { t } = useTranslation('delegations');
  return <Tag>{t(`scopes.${scope}`)}</Tag>;
}

/** A person with their department, in the interface language. */
export function PersonName({ person }: { person: DelegationPerson }) {
  const { i18n } = useTranslation();
  return (
    <span>
      <bdi>{localName(person, i18n.language)}</bdi>
      {person.department && (
        <Typography.Text type="secondary"> — {localName(person.department, i18n.language)}</Typography.Text>
      )}
    </span>
  );
}

/** Picks an active user (searched by name or username on the server). */
export function PersonSelect({
  value,
  onChange,
  testId,
  excludeId,
}: {
  value?: number;
  onChange?: (id: number) => void;
  testId: string;
  excludeId?: number;
}) {
  const { t, i18n } = useTranslation('delegations');
  const [search, setSearch] = useState('');
  const found = useQuery({
    queryKey: ['delegations', 'candidates', search],
    queryFn: () => call(E.candidates, { query: { q: search } }),
  });
  return (
    <Select<number>
      showSearch
      value={value}
      onChange={onChange}
      filterOption={false}
      onSearch={setSearch}
      loading={found.isFetching}
      placeholder={t('form.pickPerson')}
      data-testid={testId}
      options={(found.data ?? [])
        .filter((p) => p.id !== excludeId)
        .map((p) => ({
          value: p.id,
          label: p.department
            ? `${localName(p, i18n.language)} — ${localName(p.department, i18n.language)}`
            : localName(p, i18n.language),
        }))}
    />
  );
}

/** A table of delegations; `onEnd` offers "End now" on those not over. */
export function DelegationTable({
  rows,
  loading,
  show,
  onEnd,
  ending,
  testId,
}: {
  rows: readonly Delegation[];
  loading: boolean;
  show: { delegator: boolean; delegate: boolean };
  onEnd?: (d: Delegation) => void;
  ending?: boolean;
  testId: string;
}) {
  const { t } = useTranslation('delegations');
  return (
    <Table<Delegation>
      size="small"
      rowKey="id"
      loading={loading}
      dataSource={[...rows]}
      pagination={false}
      data-testid={testId}
      locale={{ emptyText: t('empty') }}
      columns={[
        ...(show.delegator
          ? [
              {
                key: 'delegator',
                title: t('columns.delegator'),
                render: (_: unknown, d: Delegation) => <PersonName person={d.delegator} />,
              },
            ]
          : []),
        ...(show.delegate
          ? [
              {
                key: 'delegate',
                title: t('columns.delegate'),
                render: (_: unknown, d: Delegation) => <PersonName person={d.delegate} />,
              },
            ]
          : []),
        {
          key: 'scope',
          title: t('columns.scope'),
          render: (_: unknown, d: Delegation) => <ScopeTag scope={d.scope} />,
        },
        {
          key: 'dates',
          title: t('columns.dates'),
          render: (_: unknown, d: Delegation) => (
            <span>
              <bdi>{formatDate(d.startsOn)}</bdi> – <bdi>{formatDate(d.endsOn)}</bdi>
            </span>
          ),
        },
        {
          key: 'state',
          title: t('columns.state'),
          render: (_: unknown, d: Delegation) => <StateTag state={d.state} />,
        },
        { key: 'reason', title: t('columns.reason'), render: (_: unknown, d: Delegation) => d.reason ?? '—' },
        ...(onEnd
          ? [
              {
                key: 'actions',
                title: '',
                render: (_: unknown, d: Delegation) =>
                  d.state === 'over' ? null : (
                    <Popconfirm
                      title={t('endConfirm')}
                      okText={t('end')}
                      cancelText={t('cancel')}
                      onConfirm={() => onEnd(d)}
                    >
                      <Button size="small" danger loading={ending} data-testid={`end-delegation-${d.id}`}>
                        {t('end')}
                      </Button>
                    </Popconfirm>
                  ),
              },
            ]
          : []),
      ]}
    />
  );
}

interface FormValues {
  delegatorId?: number;
  delegateId?: number;
  scope: DelegationScope;
  range?: [Dayjs | null, Dayjs | null] | null;
  reason?: string;
}

/**
 * Making a delegation: the delegate, the scope, the dates (inclusive; from today by default) and a
 * reason; with `withDelegator`, also whose it is (an administrator's form). The server checks every rule
 * and its refusal is shown on the field it concerns, or as a message.
 */
export function DelegationForm({
  withDelegator = false,
  today,
  excludeId,
  onSubmit,
  busy,
}: {
  withDelegator?: boolean;
  today: string;
  excludeId?: number;
  onSubmit: (body: DelegationForRequest) => Promise<unknown>;
  busy: boolean;
}) {
  const { t } = useTranslation('delegations');
  const [form] = useLocalisedForm<FormValues>();
  const required = { required: true, message: t('form.required') };
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v || !v.range?.[0] || !v.range[1] || v.delegateId === undefined) return;
    try {
      await onSubmit({
        delegatorId: v.delegatorId ?? 0,
        delegateId: v.delegateId,
        scope: v.scope,
        startsOn: v.range[0].format('YYYY-MM-DD'),
        endsOn: v.range[1].format('YYYY-MM-DD'),
        reason: v.reason?.trim() ? v.reason.trim() : null,
      });
      form.resetFields();
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={{ scope: 'both', range: [dayjs(today), dayjs(today).add(6, 'day')] }}
      data-testid="delegation-form"
    >
      {withDelegator && (
        <Form.Item name="delegatorId" label={t('form.delegator')} rules={[required]}>
          <PersonSelect testId="delegation-delegator" />
        </Form.Item>
      )}
      <Form.Item
        name="delegateId"
        label={t('form.delegate')}
        rules={[required]}
        extra={t('form.delegateHint')}
      >
        <PersonSelect testId="delegation-delegate" excludeId={excludeId} />
      </Form.Item>
      <Form.Item name="scope" label={t('form.scope')} rules={[required]}>
        <Radio.Group
          optionType="button"
          data-testid="delegation-scope"
          options={DELEGATION_SCOPES.map((s) => ({ value: s, label: t(`scopes.${s}`) }))}
        />
      </Form.Item>
      <Form.Item name="range" label={t('form.dates')} rules={[required]} extra={t('form.datesHint')}>
        <DatePicker.RangePicker
          format={DATE_FORMAT}
          disabledDate={(d) => d.isBefore(dayjs(today), 'day')}
          data-testid="delegation-dates"
        />
      </Form.Item>
      <Form.Item name="reason" label={t('form.reason')}>
        <Input.TextArea rows={2} maxLength={500} data-testid="delegation-reason" />
      </Form.Item>
      <Button type="primary" onClick={() => void submit()} loading={busy} data-testid="delegation-save">
        {t('form.save')}
      </Button>
    </Form>
  );
}
