/**
 * What a user read (issue 31; docs/read-audit-and-integrity.md), opened from the users screen by holders of
 * the audit page: each opening of a document and each view, download and print of an attachment — the
 * document (its number and subject, a link to it, when the viewer may see it), the act, when, from which
 * address — newest first, paged on the server (GET /auth/users/{id}/reads).
 */
import { Drawer, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { User } from '../../../src-shared/api/admin';
import type { ReadEntry } from '../../../src-shared/api/reads';
import { useSession } from '../../app/session';
import { DataTable, formatDateTime, type DataTableColumn } from '../../components/DataTable';
import { ENDPOINTS, adminKeys } from '../../lib/admin-api';
import { documentScreenPath, mayViewIn } from '../../lib/document-links';
import { localName } from '../../lib/names';

/** The drawer's width: the four columns side by side at 1280 px. */
const WIDTH = 960;

/** The document a read names: number and subject linking to it, or its bare id when hidden from the viewer. */
function ReadDocument({ read, mayView }: { read: ReadEntry; mayView: (page: string) => boolean }) {
  const { t } = useTranslation('admin');
  const doc = read.document;
  if (!doc)
    return (
      <Tooltip title={t('reads.hidden')}>
        <Typography.Text type="secondary" data-testid="read-document-hidden">
          <bdi dir="ltr">#{read.documentId}</bdi>
        </Typography.Text>
      </Tooltip>
    );
  const path = documentScreenPath(doc, mayView);
  const text = (
    <>
      {doc.docNumber ? (
        <bdi className="corr-number">{doc.docNumber}</bdi>
      ) : (
        <Typography.Text type="secondary">{t('reads.unnumbered')}</Typography.Text>
      )}
      {' — '}
      <bdi>{doc.subject}</bdi>
    </>
  );
  return path ? (
    <Link to={path} data-testid="read-document">
      {text}
    </Link>
  ) : (
    <span data-testid="read-document">{text}</span>
  );
}

/** The drawer listing what `user` read; closed while `user` is null. */
export function UserReadsDrawer({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('admin');
  const mayView = mayViewIn(useSession().sections);

  const columns: DataTableColumn<ReadEntry>[] = [
    {
      key: 'document',
      title: 'admin:reads.columns.document',
      grow: true,
      render: (r) => <ReadDocument read={r} mayView={mayView} />,
    },
    {
      key: 'action',
      title: 'admin:reads.columns.action',
      render: (r) => (
        <span>
          {t(`correspondence:reads.actions.${r.action.slice('documents.'.length)}`)}
          {r.fileName && (
            <Typography.Text type="secondary">
              {' '}
              <bdi>{r.fileName}</bdi>
            </Typography.Text>
          )}
          {r.watermarked && <Tag className="reads-watermark">{t('correspondence:reads.watermarked')}</Tag>}
        </span>
      ),
    },
    {
      key: 'at',
      title: 'admin:reads.columns.at',
      render: (r) => <bdi>{formatDateTime(r.at)}</bdi>,
    },
    {
      key: 'ip',
      title: 'admin:reads.columns.ip',
      // Room for an IPv4 address and its header on one line.
      width: 130,
      render: (r) => <bdi dir="ltr">{r.ip ?? '—'}</bdi>,
    },
  ];

  return (
    <Drawer
      open={user !== null}
      onClose={onClose}
      size={WIDTH}
      title={user ? t('reads.title', { name: localName(user, i18n.language) || user.username }) : ''}
      destroyOnHidden
      data-testid="user-reads"
    >
      {user && (
        <>
          <Typography.Paragraph type="secondary">{t('reads.description')}</Typography.Paragraph>
          <DataTable<ReadEntry>
            testId="user-reads-table"
            queryKey={adminKeys.userReads(user.id)}
            endpoint={ENDPOINTS.userReads(user.id)}
            columns={columns}
            rowKey={(r) => r.id}
            searchable={false}
            emptyMessageKey="admin:reads.empty"
          />
        </>
      )}
    </Drawer>
  );
}
