/**
 * The steps of an approval circuit, editable: people per step (several in one step give their opinion in
 * parallel), add a person (searching the people who may be put in a circuit), add a step before the
 * signatory, remove people and steps, move steps up and down. The last step is the signatory: one person,
 * chosen only among those who hold signing authority for the entity (`signatories`, from the server); a
 * signatory who does not (a step moved last, a saved circuit whose signatory lost it) is marked, and the
 * circuit is not valid until another is chosen. Used by the author submitting a document and by the
 * administrator saving a department's circuit.
 */
import { useMemo, useState } from 'react';
import { Button, Flex, Select, Spin, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApproverOption, Signatories } from '../../../src-shared/api/correspondence';
import { normalizeArabic } from '../../../src-shared/arabic';
import { correspondenceEndpoints as E } from '../../../src-shared/api/correspondence-endpoints';
import { call } from '../../lib/call';
import { localName } from '../../lib/names';

export type CircuitStep = ApproverOption[];

/** Whether `person` may be the signatory (false while the holders are not known). */
export const maySign = (signatories: Signatories | null | undefined, person: ApproverOption | undefined) =>
  !!person && !!signatories?.signatories.some((p) => p.userId === person.userId);

/**
 * Whether the steps make a circuit the server takes: every step has someone, one signatory last, who holds
 * signing authority for the entity.
 */
export const circuitValid = (
  steps: readonly CircuitStep[] | null,
  signatories: Signatories | null | undefined,
) =>
  !!steps &&
  steps.length > 0 &&
  steps.every((s) => s.length > 0) &&
  steps.at(-1)!.length === 1 &&
  maySign(signatories, steps.at(-1)![0]);

/** The people who may sign (the holders of signing authority), searched here by either name. */
function SignatorySelect({
  signatories,
  onPick,
  exclude,
  testId,
}: {
  signatories: Signatories | null | undefined;
  onPick: (person: ApproverOption) => void;
  exclude: number[];
  testId: string;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const options = (signatories?.signatories ?? [])
    .filter((p) => !exclude.includes(p.userId))
    .map(({ authority, ...p }) => ({
      value: p.userId,
      search: normalizeArabic(
        `${p.nameAr} ${p.nameEn} ${p.department?.nameAr ?? ''} ${p.department?.nameEn ?? ''}`,
      ),
      label: (
        <span data-testid="signatory-option">
          <bdi>{localName(p, i18n.language)}</bdi>
          {p.department && (
            <Typography.Text type="secondary"> — {localName(p.department, i18n.language)}</Typography.Text>
          )}{' '}
          <Tag>{t(`signing.authority.${authority}`)}</Tag>
        </span>
      ),
      person: p,
    }));
  return (
    <Select<number | null>
      showSearch={{
        filterOption: (input, option) => !!option && option.search.includes(normalizeArabic(input)),
      }}
      value={null}
      placeholder={t('signing.choose')}
      options={options}
      // Wide enough for a name, its department and why they may sign.
      popupMatchSelectWidth={false}
      loading={!signatories}
      notFoundContent={!signatories ? <Spin size="small" /> : t('signing.nobody')}
      onChange={(userId) => {
        const hit = options.find((o) => o.value === userId);
        if (hit) onPick(hit.person);
      }}
      className="corr-circuit-search"
      data-testid={testId}
      aria-label={t('signing.choose')}
    />
  );
}

/** Searches the people who may be put in a circuit (active accounts). */
export function ApproverSearch({
  onPick,
  exclude,
  testId,
  placeholder,
}: {
  onPick: (person: ApproverOption) => void;
  exclude: number[];
  testId: string;
  placeholder?: string;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [q, setQ] = useState('');
  const found = useQuery({
    queryKey: ['correspondence', 'approvers', q],
    queryFn: () => call(E.approvers, { query: q ? { q } : {} }),
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
      placeholder={placeholder ?? t('circuit.addPerson')}
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
      aria-label={placeholder ?? t('circuit.addPerson')}
    />
  );
}

export function CircuitSteps({
  steps,
  onChange,
  signatories,
}: {
  steps: readonly CircuitStep[];
  onChange: (steps: CircuitStep[]) => void;
  /** Who holds signing authority for the entity (null while loading). */
  signatories: Signatories | null | undefined;
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
              {step.map((p) => {
                const refused = signatory && signatories && !maySign(signatories, p);
                return (
                  <Tag
                    key={p.userId}
                    closable
                    color={refused ? 'error' : undefined}
                    onClose={() =>
                      update((s) =>
                        s.map((st, j) => (j === i ? st.filter((x) => x.userId !== p.userId) : st)),
                      )
                    }
                    data-testid={refused ? 'circuit-person-refused' : 'circuit-person'}
                  >
                    <bdi>{localName(p, i18n.language)}</bdi>
                    {p.department && (
                      <span className="corr-muted"> · {localName(p.department, i18n.language)}</span>
                    )}
                  </Tag>
                );
              })}
              {!signatory && (
                <ApproverSearch
                  exclude={everyone}
                  testId={`circuit-add-${i + 1}`}
                  onPick={(person) => update((s) => s.map((st, j) => (j === i ? [...st, person] : st)))}
                />
              )}
              {signatory && step.length === 0 && (
                <SignatorySelect
                  signatories={signatories}
                  exclude={everyone}
                  testId={`circuit-add-${i + 1}`}
                  onPick={(person) => update((s) => s.map((st, j) => (j === i ? [person] : st)))}
                />
              )}
            </Flex>
            {signatory && step.length > 1 && (
              <Typography.Text type="danger">{t('circuit.oneSignatory')}</Typography.Text>
            )}
            {signatory && step.length === 1 && signatories && !maySign(signatories, step[0]) && (
              <div className="corr-circuit-note">
                <Typography.Text type="danger" data-testid="circuit-signatory-refused">
                  {t('signing.refused', {
                    name: localName(step[0], i18n.language),
                    entity: localName(signatories.entity, i18n.language),
                  })}
                </Typography.Text>
              </div>
            )}
            {signatory && signatories && (
              <div className="corr-circuit-note">
                <Typography.Text type="secondary" data-testid="circuit-signatory-hint">
                  {t(signatories.signatories.length ? 'signing.hint' : 'signing.none', {
                    entity: localName(signatories.entity, i18n.language),
                  })}
                </Typography.Text>
              </div>
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
