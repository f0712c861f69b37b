/**
 * The one placeholder of the screens later issues build: the page's localised title from the page tree
 * and the specification's empty-state message for it. Route modules bind it to their empty state.
 */
import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../app/locale';
import { useCurrentPage } from '../app/permissions';

/** The empty-state messages of the specification (section 2), plus a generic one. */
export type EmptyState =
  | 'noInbox'
  | 'noOutbox'
  | 'noDrafts'
  | 'noFollowUps'
  | 'noTasks'
  | 'noAwaitingApproval'
  | 'noRequiringApproval'
  | 'noRequiringChanges'
  | 'noDocuments'
  | 'noDepartments'
  | 'noAttachments'
  | 'noEmployees'
  | 'noSecretaryOffices'
  | 'noRecords';

export function PlaceholderPage({ empty, detail = false }: { empty: EmptyState; detail?: boolean }) {
  const { t } = useTranslation('pages');
  const { locale } = useLocale();
  const node = useCurrentPage();
  const title = node ? (locale === 'ar' ? node.nameAr : node.nameEn) : '';
  return (
    <div className="page">
      <Typography.Title level={3} className="page-title" data-testid="page-title">
        {title}
        {detail ? <span className="page-title-detail"> — {t('placeholder.document')}</span> : null}
      </Typography.Title>
      <Card>
        <Empty description={t(`empty.${empty}`)} data-testid="page-empty">
          <Typography.Text type="secondary">{t('placeholder.comingSoon')}</Typography.Text>
        </Empty>
      </Card>
    </div>
  );
}
