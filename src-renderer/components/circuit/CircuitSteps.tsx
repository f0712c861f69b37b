/**
 * The steps of an approval circuit, editable: people per step (several in one step give their opinion in
 * parallel), add a person (searching the people who may be put in a circuit), add a step before the
 * signatory, remove people and steps, move steps up and down. The last step is the signatory: one person.
 * Used by the author submitting a document and by the administrator saving a department's circuit.
 */
import { useMemo, useState } from 'react';
import { Button, Flex, Select, Spin, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApproverOption } from '../../../src-shared/api/correspondence';
import { http } from '../../lib/http';
import { localName } from '../../lib/names';

export type CircuitStep = ApproverOption[];

/** Whether the steps make a circuit the server takes: every step has someone, one signatory last. */
export const circuitValid = (steps: readonly CircuitStep[] | null) =>
  !!steps && steps.length > 0 && steps.every((s) => s.length > 0) && steps.at(-1)!.length === 1;

/** Searches the people who may be put in a circuit. */
function ApproverSearch({
  onPick,
  exclude,
  testId,
}: {
  onPick: (person: ApproverOption) => void;
  exclude: number[];
  testId: string;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [q, setQ] = useState('');
  const found = useQuery({
    queryKey: ['correspondence', 'approvers', q],
    queryFn: () => http.get<ApproverOption[]>('/correspondence/approvers', { query: q ? { q } : {} }),
    staleTime: 30_000,
  });
  const options = (found.data ?? [])
    .filter((p) => !exclude.includes(p.userId))
    .map((p) => ({
      value: p.userId,
      label: (
        <span>
          <bdi>{localName(p, i18n.language)}</bdi>
          {p.department && (
            <Typography.Text type="secondary"> — {localName(p.department, i18n.language)}</Typography.Text>
          )}
        </span>
      ),
      person: p,
    }));
  return (
    <Select<number | null>
      showSearch={{ filterOption: false, onSearch: setQ }}
      value={null}
      placeholder={t('circuit.addPerson')}
      options={options}
      loading={found.isFetching}
      notFoundContent={found.isFetching ? <Spin size="small" /> : t('circuit.nobody')}
      onChange={(userId) => {
        const hit = options.find((o) => o.value === userId);
        if (hit) onPick(hit.person);
        setQ('');
      }}
      className="corr-circuit-search"
      data-testid={testId}
      aria-label={t('circuit.addPerson')}
    />
  );
}

export function CircuitSteps({
  steps,
  onChange,
}: {
  steps: readonly CircuitStep[];
  onChange: (steps: CircuitStep[]) => void;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const everyone = useMemo(() => steps.flat().map((p) => p.userId), [steps]);
  const update = (change: (draft: CircuitStep[]) => CircuitStep[]) => onChange(change([...steps]));
  const move = (i: number, by: number) =>
    update((s) => {
      const j = i + by;
      if (j < 0 || j >= s.length) return s;
      [s[i], s[j]] = [s[j]!, s[i]!];
      return s;
    });
  return (
    <Flex vertical gap={8}>
      {steps.map((step, i) => {
        const signatory = i === steps.length - 1;
        return (
          <div key={i} className="corr-circuit-step" data-testid="circuit-step">
            <Flex justify="space-between" align="center" gap={8} wrap>
              <Typography.Text strong>
                {t('circuit.stepN', { n: i + 1 })} —{' '}
                {signatory ? t('circuit.kind.sign') : t('circuit.kind.opinion')}
              </Typography.Text>
              <Flex gap={4}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  disabled={i === 0}
                  aria-label={t('circuit.moveUp')}
                  onClick={() => move(i, -1)}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  disabled={i === steps.length - 1}
                  aria-label={t('circuit.moveDown')}
                  onClick={() => move(i, 1)}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('circuit.removeStep')}
                  onClick={() => update((s) => s.filter((_, j) => j !== i))}
                />
              </Flex>
            </Flex>
            <Flex gap={6} wrap align="center" className="corr-circuit-people">
              {step.map((p) => (
                <Tag
                  key={p.userId}
                  closable
                  onClose={() =>
                    update((s) => s.map((st, j) => (j === i ? st.filter((x) => x.userId !== p.userId) : st)))
                  }
                  data-testid="circuit-person"
                >
                  <bdi>{localName(p, i18n.language)}</bdi>
                  {p.department && (
                    <span className="corr-muted"> · {localName(p.department, i18n.language)}</span>
                  )}
                </Tag>
              ))}
              {(!signatory || step.length === 0) && (
                <ApproverSearch
                  exclude={everyone}
                  testId={`circuit-add-${i + 1}`}
                  onPick={(person) => update((s) => s.map((st, j) => (j === i ? [...st, person] : st)))}
                />
              )}
            </Flex>
            {signatory && step.length > 1 && (
              <Typography.Text type="danger">{t('circuit.oneSignatory')}</Typography.Text>
            )}
          </div>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        onClick={() => update((s) => [...s.slice(0, Math.max(0, s.length - 1)), [], ...s.slice(-1)])}
        data-testid="circuit-add-step"
      >
        {t('circuit.addStep')}
      </Button>
    </Flex>
  );
}
