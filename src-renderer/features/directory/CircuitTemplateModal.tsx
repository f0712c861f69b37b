/**
 * A department's saved approval circuits (one for outgoing letters, one for memos): proposed to the
 * department's authors instead of the managers up the tree. Saved by whoever may edit departments; the
 * signatory is one of those who hold signing authority for the department's entity.
 */
import { useEffect, useState } from 'react';
import { Alert, Modal, Segmented, Spin, Typography, type ButtonProps } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { correspondenceEndpoints as E } from '../../../src-shared/api/correspondence-endpoints';
import { CircuitSteps, circuitValid, type CircuitStep } from '../../components/circuit/CircuitSteps';
import { call } from '../../lib/call';
import { signingApi, signingKeys } from '../../lib/signing-api';

type Family = 'out' | 'memo';

export function CircuitTemplateModal({
  departmentId,
  onClose,
}: {
  departmentId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('correspondence');
  const queryClient = useQueryClient();
  const [family, setFamily] = useState<Family>('out');
  const [steps, setSteps] = useState<CircuitStep[] | null>(null);
  const [saving, setSaving] = useState(false);
  const template = useQuery({
    queryKey: ['correspondence', 'circuit-template', departmentId, family],
    queryFn: () => call(E.circuitTemplate, { params: { departmentId: departmentId!, direction: family } }),
    enabled: departmentId !== null,
  });
  const signing = useQuery({
    queryKey: signingKeys.of(departmentId ?? 0),
    queryFn: () => signingApi.of(departmentId!),
    enabled: departmentId !== null,
  });
  useEffect(() => {
    setSteps(template.data ? template.data.steps.map((s) => s.members) : null);
  }, [template.data]);
  const valid = circuitValid(steps, signing.data);
  const save = async () => {
    if (departmentId === null || !valid) return;
    setSaving(true);
    try {
      await call(E.saveCircuitTemplate, {
        params: { departmentId, direction: family },
        body: { steps: steps!.map((s) => ({ userIds: s.map((p) => p.userId) })) },
      });
      void queryClient.invalidateQueries({ queryKey: ['correspondence', 'circuit-template', departmentId] });
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={departmentId !== null}
      title={t('circuit.templateTitle')}
      onCancel={onClose}
      width={720}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ disabled: !valid, loading: saving, 'data-testid': 'template-save' } as ButtonProps}
      onOk={() => void save()}
      data-testid="circuit-template-dialog"
      destroyOnHidden
    >
      <Segmented<Family>
        value={family}
        onChange={setFamily}
        options={[
          { value: 'out', label: t('circuit.forOutgoing') },
          { value: 'memo', label: t('circuit.forMemos') },
        ]}
        data-testid="template-family"
      />
      <Typography.Paragraph type="secondary" className="corr-hint">
        {t('circuit.templateHint')}
      </Typography.Paragraph>
      {template.isLoading || steps === null ? (
        <Spin />
      ) : (
        <>
          {steps.length === 0 && <Alert type="info" showIcon message={t('circuit.noTemplate')} />}
          <CircuitSteps steps={steps} onChange={setSteps} signatories={signing.data} />
        </>
      )}
    </Modal>
  );
}
