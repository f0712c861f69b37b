/**
 * An entity's signing authority, from the department tree: who may sign the outgoing letters and memos its
 * departments send — its manager by office, and the accounts an administrator grants it to — with who
 * granted each and when, a grant to a new account, revocation, and the grants revoked before. The server
 * decides (src-server/modules/correspondence/signing.ts); granting and revoking need `edit` here.
 */
import { useState } from 'react';
import { Button, Empty, Flex, List, Modal, Spin, Tag, Typography } from 'antd';
import { DeleteOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import type { ApproverOption, SigningGrant } from '../../../src-shared/api/correspondence';
import { ApproverSearch } from '../../components/circuit/CircuitSteps';
import { formatDateTime } from '../../components/DataTable';
import { LoadFailed } from '../../components/LoadFailed';
import { localName } from '../../lib/names';
import { signingApi, signingKeys } from '../../lib/signing-api';

/** A person with their department, in the interface language. */
function Person({ person }: { person: ApproverOption }) {
  const { i18n } = useTranslation('directory');
  return (
    <span>
      <bdi>{localName(person, i18n.language)}</bdi>
      {person.department && (
        <Typography.Text type="secondary"> · {localName(person.department, i18n.language)}</Typography.Text>
      )}
    </span>
  );
}

/** "Granted by … on …" (or revoked): the name and the instant isolated from the sentence around them. */
function ByWhomWhen({
  i18nKey,
  who,
  at,
}: {
  i18nKey: 'signing.grantedBy' | 'signing.revokedBy';
  who: SigningGrant['grantedBy'];
  at: string | null;
}) {
  const { t, i18n } = useTranslation('directory');
  return (
    <Trans
      t={t}
      i18nKey={i18nKey}
      values={{ name: who ? localName(who, i18n.language) : t('signing.someone'), at: formatDateTime(at) }}
      components={{ who: <bdi />, at: <bdi /> }}
    />
  );
}

export function SigningAuthorityModal({
  departmentId,
  canEdit,
  onClose,
}: {
  /** The entity (null: closed). */
  departmentId: number | null;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('directory');
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<ApproverOption | null>(null);
  const [busy, setBusy] = useState(false);
  const current = useQuery({
    queryKey: signingKeys.of(departmentId ?? 0),
    queryFn: () => signingApi.of(departmentId!),
    enabled: departmentId !== null,
  });
  const data = current.data;
  const inForce = (data?.grants ?? []).filter((g) => g.revokedAt === null);
  const revoked = (data?.grants ?? []).filter((g) => g.revokedAt !== null);
  const entityName = localName(data?.entity, i18n.language);

  const change = async (act: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await act();
      setChosen(null);
      await queryClient.invalidateQueries({ queryKey: signingKeys.all });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={departmentId !== null}
      title={
        <Flex gap={8} align="center">
          <SafetyCertificateOutlined />
          <span>{t('signing.title', { name: entityName })}</span>
        </Flex>
      }
      onCancel={onClose}
      footer={
        <Button onClick={onClose} data-testid="signing-close">
          {t('actions.close')}
        </Button>
      }
      width={680}
      destroyOnHidden
      data-testid="signing-dialog"
    >
      {current.isLoading ? (
        <Spin />
      ) : current.isError || !data ? (
        <LoadFailed onRetry={() => void current.refetch()} testId="signing-failed" />
      ) : (
        <Flex vertical gap={16}>
          <Typography.Paragraph type="secondary" style={{ marginBlockEnd: 0 }}>
            {t('signing.hint', { name: entityName })}
          </Typography.Paragraph>

          <div>
            <Typography.Title level={5}>{t('signing.holders')}</Typography.Title>
            {data.signatories.length === 0 ? (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={<span data-testid="signing-nobody">{t('signing.nobody')}</span>}
              />
            ) : (
              <List
                size="small"
                dataSource={data.signatories}
                renderItem={(p) => (
                  <List.Item data-testid="signing-holder">
                    <Person person={p} />
                    <Tag color={p.authority === 'manager' ? 'blue' : 'gold'}>
                      {t(`signing.authority.${p.authority}`)}
                    </Tag>
                  </List.Item>
                )}
              />
            )}
          </div>

          <div>
            <Typography.Title level={5}>{t('signing.grants')}</Typography.Title>
            <List
              size="small"
              locale={{ emptyText: t('signing.noGrants') }}
              dataSource={inForce}
              renderItem={(g) => (
                <List.Item
                  data-testid="signing-grant"
                  actions={
                    canEdit
                      ? [
                          <Button
                            key="revoke"
                            danger
                            type="text"
                            icon={<DeleteOutlined />}
                            loading={busy}
                            onClick={() =>
                              void change(() => signingApi.revoke(data.entity!.id, g.user.userId))
                            }
                            data-testid="signing-revoke"
                          >
                            {t('signing.revoke')}
                          </Button>,
                        ]
                      : []
                  }
                >
                  <Flex vertical>
                    <Person person={g.user} />
                    <Typography.Text type="secondary" className="directory-muted">
                      <ByWhomWhen i18nKey="signing.grantedBy" who={g.grantedBy} at={g.grantedAt} />
                    </Typography.Text>
                  </Flex>
                </List.Item>
              )}
            />
            {canEdit && (
              <Flex gap={8} wrap align="center" className="directory-signing-pick">
                {chosen ? (
                  <Tag closable onClose={() => setChosen(null)} data-testid="signing-chosen">
                    <Person person={chosen} />
                  </Tag>
                ) : (
                  <ApproverSearch
                    exclude={inForce.map((g) => g.user.userId)}
                    onPick={setChosen}
                    testId="signing-pick"
                    placeholder={t('signing.pick')}
                  />
                )}
                <Button
                  type="primary"
                  disabled={!chosen}
                  loading={busy}
                  onClick={() =>
                    chosen && void change(() => signingApi.grant(data.entity!.id, chosen.userId))
                  }
                  data-testid="signing-grant-submit"
                >
                  {t('signing.grant')}
                </Button>
              </Flex>
            )}
          </div>

          {revoked.length > 0 && (
            <div>
              <Typography.Title level={5}>{t('signing.revoked')}</Typography.Title>
              <List
                size="small"
                dataSource={revoked}
                renderItem={(g) => (
                  <List.Item data-testid="signing-revoked">
                    <Flex vertical>
                      <Person person={g.user} />
                      <Typography.Text type="secondary" className="directory-muted">
                        <ByWhomWhen i18nKey="signing.grantedBy" who={g.grantedBy} at={g.grantedAt} /> —{' '}
                        <ByWhomWhen i18nKey="signing.revokedBy" who={g.revokedBy} at={g.revokedAt} />
                      </Typography.Text>
                    </Flex>
                  </List.Item>
                )}
              />
            </div>
          )}
        </Flex>
      )}
    </Modal>
  );
}
