/**
 * The approval circuit of an outgoing letter or memo on its detail screen: each step with its people,
 * their answers (on which version, when, with what comment), whose turn it is; and for the person whose
 * turn it is, Approve, Request changes and Reject (both with a required comment). A signatory who does
 * not hold signing authority for the document's entity (any more) is marked, and cannot approve: they may
 * send it back. The author whose document came back sees how to edit and resubmit it, or resubmit it as
 * it is.
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Flex, Form, Input, Modal, Space, Tag, Typography } from 'antd';
import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  EditOutlined,
  RollbackOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type {
  ApprovalAction,
  ApprovalRequest,
  Document,
  SubmitRequest,
} from '../../../../src-shared/api/correspondence';
import { formatDateTime } from '../../../components/DataTable';
import { localName } from '../../../lib/names';
import { documentsApi } from './api';
import { ApprovalStatusTag } from './CircuitListScreens';
import { FAMILIES, familyOf } from './directions';

const DECISION_COLOR = { approved: 'green', rejected: 'red', changesRequested: 'orange' } as const;

export function ApprovalPanel({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<Exclude<ApprovalAction, 'approve'> | null>(null);
  const [comment, setComment] = useState('');
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const decision = useMutation({
    mutationFn: ({ id, body }: { id: number; body: ApprovalRequest }) => documentsApi.decide(id, body),
    networkMode: 'always',
  });
  const resubmission = useMutation({
    mutationFn: ({ id, body }: { id: number; body: SubmitRequest }) => documentsApi.submit(id, body),
    networkMode: 'always',
  });
  const busy = decision.isPending || resubmission.isPending;
  const approval = doc.approval;
  if (!approval) return null;
  const family = FAMILIES[familyOf(doc.direction)];
  // The caller's turn is the signature and they do not hold signing authority: the server refuses it.
  const signatory = approval.steps.at(-1)?.members[0];
  const cannotSign =
    doc.abilities.decide &&
    approval.currentStep === approval.steps.at(-1)?.position &&
    signatory?.signingAuthority === false;

  const act = async (action: ApprovalAction, text?: string) => {
    await decision.mutateAsync({
      id: doc.id,
      body: { action, comment: text ?? null, version: doc.version },
    });
    setAsking(null);
    setComment('');
    onChanged();
  };
  const confirmApprove = () =>
    modal.confirm({
      title: t('approval.confirmApprove'),
      content: approval.steps.at(-1)?.members.some((m) => m.pending) ? t('approval.confirmSign') : undefined,
      okText: t('approval.approve'),
      cancelText: t('actions.cancel'),
      onOk: () => act('approve'),
    });
  const resubmit = async () => {
    await resubmission.mutateAsync({ id: doc.id, body: { version: doc.version } });
    onChanged();
  };

  return (
    <Card
      size="small"
      title={t('approval.title')}
      extra={<ApprovalStatusTag state={doc.state} />}
      data-testid="approval-panel"
    >
      {approval.steps.length === 0 && (
        <Typography.Text type="secondary">{t('approval.notSubmitted')}</Typography.Text>
      )}
      <ol className="corr-circuit">
        {approval.steps.map((step) => (
          <li
            key={step.position}
            className={step.position === approval.currentStep ? 'corr-circuit-current' : undefined}
            data-testid="approval-step"
          >
            <Typography.Text strong>
              {t('circuit.stepN', { n: step.position })} — {t(`circuit.kind.${step.kind}`)}
            </Typography.Text>
            {step.members.map((m) => (
              <div key={m.userId} className="corr-circuit-member" data-testid="approval-member">
                <bdi>{localName(m, i18n.language)}</bdi>
                {m.department && (
                  <Typography.Text type="secondary">
                    {' '}
                    · {localName(m.department, i18n.language)}
                  </Typography.Text>
                )}{' '}
                {m.pending && <Tag color="processing">{t('approval.theirTurn')}</Tag>}
                {m.signingAuthority === false && (
                  <Tag color="error" data-testid="no-signing-authority">
                    {t('signing.noAuthority')}
                  </Tag>
                )}
                {m.decision && (
                  <Tag color={DECISION_COLOR[m.decision]} data-testid={`decision-${m.decision}`}>
                    {t(`approval.decision.${m.decision}`)}
                  </Tag>
                )}
                {/* No version number: every answer of the circuit shown is on the text as it was sent
                    (an edit starts the circuit again), and the timeline tells each sending. */}
                {m.decidedAt && (
                  <Typography.Text type="secondary" className="corr-muted">
                    <bdi>{formatDateTime(m.decidedAt)}</bdi>
                  </Typography.Text>
                )}
                {m.comment && <div className="corr-timeline-notes">{m.comment}</div>}
              </div>
            ))}
          </li>
        ))}
      </ol>
      {cannotSign && (
        <Alert
          type="warning"
          showIcon
          className="corr-form-actions"
          message={t('signing.cannotSign')}
          data-testid="cannot-sign"
        />
      )}
      {doc.abilities.decide && doc.abilities.decideOnBehalfOf && (
        <Tag color="purple" className="corr-form-actions" data-testid="approval-on-behalf">
          {t('delegations:onBehalfOf', {
            name: localName(doc.abilities.decideOnBehalfOf, i18n.language),
          })}
        </Tag>
      )}
      {doc.abilities.decide && (
        <Space wrap className="corr-form-actions">
          <Button
            type="primary"
            icon={<CheckCircleOutlined />}
            loading={busy}
            disabled={cannotSign}
            onClick={confirmApprove}
            data-testid="approve"
          >
            {t('approval.approve')}
          </Button>
          <Button
            icon={<RollbackOutlined />}
            onClick={() => setAsking('requestChanges')}
            data-testid="request-changes"
          >
            {t('approval.requestChanges')}
          </Button>
          <Button
            danger
            icon={<CloseCircleOutlined />}
            onClick={() => setAsking('reject')}
            data-testid="reject"
          >
            {t('approval.reject')}
          </Button>
        </Space>
      )}
      {doc.abilities.submit && doc.state !== 'draft' && (
        <Flex gap={8} wrap className="corr-form-actions">
          <Button
            type="primary"
            icon={<EditOutlined />}
            onClick={() => void navigate(family.draftPath(doc.id))}
            data-testid="edit-and-resubmit"
          >
            {t('approval.edit')}
          </Button>
          <Button
            icon={<SendOutlined />}
            loading={busy}
            onClick={() => void resubmit()}
            data-testid="resubmit"
          >
            {t('approval.resubmit')}
          </Button>
        </Flex>
      )}
      <Modal
        open={asking !== null}
        title={asking ? t(`approval.${asking}Title`) : ''}
        okText={asking ? t(`approval.${asking}`) : ''}
        okButtonProps={{ danger: asking === 'reject', disabled: !comment.trim(), loading: busy }}
        cancelText={t('actions.cancel')}
        onCancel={() => setAsking(null)}
        onOk={() => asking && void act(asking, comment.trim())}
        data-testid="decision-dialog"
      >
        <Form layout="vertical">
          <Form.Item label={t('approval.comment')} required>
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 8 }}
              value={comment}
              maxLength={2000}
              onChange={(e) => setComment(e.target.value)}
              data-testid="decision-comment"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
