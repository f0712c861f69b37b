/**
 * The approval circuit an author sends a document into: the proposed steps (the department's template,
 * or the managers up the tree ending with the entity's manager as signatory), which the author may change
 * before sending — add a person to a step (several in one step give their opinion in parallel), add a
 * step, remove people and steps, move steps up and down. The last step is the signatory: one person who
 * holds signing authority for the document's entity (the server lists them; only they are offered).
 */
import { useEffect, useState } from 'react';
import { Alert, Flex, Modal, Spin, Typography, type ButtonProps } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Document, SubmitRequest } from '../../../../src-shared/api/correspondence';
import { CircuitSteps, circuitValid, type CircuitStep } from '../../../components/circuit/CircuitSteps';
import { ApiError } from '../../../lib/http';
import { documentsApi } from './api';
import { corrKeys } from './keys';
import { userAction } from '../../../lib/toast';
import { useShownMessage } from '../../../app/locale';

export function CircuitDialog({
  doc,
  onClose,
  onSubmitted,
}: {
  doc: Document;
  onClose: () => void;
  onSubmitted: (doc: Document) => void;
}) {
  const { t } = useTranslation('correspondence');
  const proposal = useQuery({
    queryKey: corrKeys.proposal(doc.id, doc.version),
    queryFn: () => documentsApi.proposal(doc.id),
  });
  const signatories = useQuery({
    queryKey: corrKeys.signatories(doc.id),
    queryFn: () => documentsApi.signatories(doc.id),
  });
  const [steps, setSteps] = useState<CircuitStep[] | null>(null);
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const submission = useMutation({
    // The page then says "sent for approval" itself, and a refusal is said in the dialog: no toast.
    mutationFn: ({ id, body }: { id: number; body: SubmitRequest }) =>
      userAction(() => documentsApi.submit(id, body), { outcomeShown: true, errorShown: true }),
    networkMode: 'always',
  });
  const [error, setError] = useShownMessage();
  useEffect(() => {
    if (proposal.data && steps === null) setSteps(proposal.data.steps.map((s) => s.members));
  }, [proposal.data, steps]);

  const valid = circuitValid(steps, signatories.data);

  const send = async () => {
    if (!steps || !valid) return;
    setError(null);
    try {
      const sent = await submission.mutateAsync({
        id: doc.id,
        body: {
          steps: steps.map((s) => ({ userIds: s.map((p) => p.userId) })),
          version: doc.version,
        },
      });
      onSubmitted(sent);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('circuit.failed'));
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
      okButtonProps={
        { disabled: !valid, loading: submission.isPending, 'data-testid': 'circuit-send' } as ButtonProps
      }
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
          <CircuitSteps steps={steps} onChange={setSteps} signatories={signatories.data} />
          {error && <Alert type="error" showIcon message={error} data-testid="circuit-error" />}
        </Flex>
      )}
    </Modal>
  );
}
