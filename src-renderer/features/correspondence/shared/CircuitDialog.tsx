/**
 * The approval circuit an author sends a document into: the proposed steps (the department's template,
 * or the managers up the tree ending with the entity's manager as signatory), which the author may change
 * before sending — add a person to a step (several in one step give their opinion in parallel), add a
 * step, remove people and steps, move steps up and down. The last step is the signatory: one person.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Flex, Modal, Select, Spin, Tag, Typography, type ButtonProps } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApproverOption, Document } from '../../../../src-shared/api/correspondence';
import { ApiError } from '../../../lib/http';
import { localName } from '../../../lib/names';
import { approvalsApi, corrKeys, documentsApi } from './api';

type Step = ApproverOption[];

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
    queryKey: corrKeys.approvers(q),
    queryFn: () => approvalsApi.approvers(q),
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

export function CircuitDialog({
  doc,
  onClose,
  onSubmitted,
}: {
  doc: Document;
  onClose: () => void;
  onSubmitted: (doc: Document) => void;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const proposal = useQuery({
    queryKey: ['correspondence', 'document', doc.id, 'proposal', doc.version],
    queryFn: () => documentsApi.proposal(doc.id),
  });
  const [steps, setSteps] = useState<Step[] | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (proposal.data && steps === null) setSteps(proposal.data.steps.map((s) => s.members));
  }, [proposal.data, steps]);

  const everyone = useMemo(() => (steps ?? []).flat().map((p) => p.userId), [steps]);
  const valid = !!steps && steps.length > 0 && steps.every((s) => s.length > 0) && steps.at(-1)!.length === 1;

  const update = (change: (draft: Step[]) => Step[]) => setSteps((current) => change([...(current ?? [])]));
  const move = (i: number, by: number) =>
    update((s) => {
      const j = i + by;
      if (j < 0 || j >= s.length) return s;
      [s[i], s[j]] = [s[j]!, s[i]!];
      return s;
    });

  const send = async () => {
    if (!steps || !valid) return;
    setSending(true);
    setError(null);
    try {
      const sent = await documentsApi.submit(doc.id, {
        steps: steps.map((s) => ({ userIds: s.map((p) => p.userId) })),
        version: doc.version,
      });
      onSubmitted(sent);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('circuit.failed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={t('circuit.title')}
      onCancel={onClose}
      width={720}
      okText={t('circuit.send')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ disabled: !valid, loading: sending, 'data-testid': 'circuit-send' } as ButtonProps}
      onOk={() => void send()}
      data-testid="circuit-dialog"
    >
      <Typography.Paragraph type="secondary">
        {t(proposal.data?.source === 'template' ? 'circuit.fromTemplate' : 'circuit.fromManagers')}
      </Typography.Paragraph>
      {proposal.isLoading || steps === null ? (
        <Spin />
      ) : (
        <Flex vertical gap={8}>
          {steps.length === 0 && <Alert type="warning" showIcon message={t('circuit.empty')} />}
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
                        update((s) =>
                          s.map((st, j) => (j === i ? st.filter((x) => x.userId !== p.userId) : st)),
                        )
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
          {error && <Alert type="error" showIcon message={error} data-testid="circuit-error" />}
        </Flex>
      )}
    </Modal>
  );
}
