/**
 * The bell in the header (issue 28): the unread count on it (a number, so it reads without its colour,
 * and said by its label), and on click the latest notifications — an icon per kind, what happened, the
 * document, the frozen details, how long ago; unread ones in bold. Clicking one marks it read and opens
 * its document; "Mark all read" and "See all" (the notifications page) close the list. It fills as main
 * pushes new ones (useNotificationFeed), without a reload.
 */
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Badge, Button, Empty, Flex, Popover, Spin, Typography } from 'antd';
import {
  AuditOutlined,
  BellOutlined,
  CheckSquareOutlined,
  ClockCircleOutlined,
  EditOutlined,
  FileDoneOutlined,
  ExclamationCircleOutlined,
  MailOutlined,
  RiseOutlined,
  SendOutlined,
  UserSwitchOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Notification, NotificationKind } from '../../../src-shared/api/notifications';
import { PAGES } from '../../../src-shared/pages';
import { useLocale } from '../../app/locale';
import { useSession } from '../../app/session';
import { formatNumber } from '../../lib/format';
import {
  markRead,
  notificationKeys,
  mayViewIn,
  notificationPath,
  notificationsApi,
  relativeTime,
  useNotificationFeed,
  wordsOf,
} from './notifications';
import './notifications.css';

const KIND_ICONS: Record<NotificationKind, ReactNode> = {
  distributed: <MailOutlined />,
  taskAssigned: <CheckSquareOutlined />,
  approvalTurn: <AuditOutlined />,
  changesRequested: <EditOutlined />,
  approved: <FileDoneOutlined />,
  dueSoon: <ClockCircleOutlined />,
  overdue: <ExclamationCircleOutlined />,
  escalated: <RiseOutlined />,
  dispatched: <SendOutlined />,
  delegated: <UserSwitchOutlined />,
  integrityFailed: <WarningOutlined />,
};

/** One notification as a row of the bell's list or of the notifications page. */
export function NotificationRow({
  notification,
  onOpen,
}: {
  notification: Notification;
  onOpen: (notification: Notification) => void;
}) {
  const { t } = useTranslation('notifications');
  const { locale } = useLocale();
  const words = wordsOf(notification, locale);
  const unread = notification.readAt === null;
  return (
    <button
      type="button"
      className={`notification-row${unread ? ' notification-unread' : ''}`}
      onClick={() => onOpen(notification)}
      data-testid={`notification-${notification.id}`}
      data-unread={unread ? 'true' : 'false'}
    >
      <span className={`notification-icon notification-icon-${notification.kind}`} aria-hidden="true">
        {KIND_ICONS[notification.kind]}
      </span>
      <span className="notification-text">
        <span className="notification-title">
          {unread ? <span className="notification-sr-only">{`${t('bell.unread')}: `}</span> : null}
          {words.title}
        </span>
        <span className="notification-document">{words.document}</span>
        {words.lines.map((line) => (
          <span key={line} className="notification-line">
            {line}
          </span>
        ))}
        <time className="notification-time" dateTime={notification.createdAt}>
          {relativeTime(notification.createdAt, locale)}
        </time>
      </span>
      {unread ? <span className="notification-dot" aria-hidden="true" /> : null}
    </button>
  );
}

/** Opens a notification: marked read (best effort), then its document (or the notifications page). */
export function useOpenNotification(after?: () => void) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const sections = useSession().sections;
  return (notification: Notification) => {
    if (notification.readAt === null)
      void markRead(client, { ids: [notification.id] }).catch(() => undefined);
    after?.();
    void navigate(notificationPath(notification, mayViewIn(sections)) ?? PAGES.notifications);
  };
}

/** The header's bell and its list. */
export function NotificationBell({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation('notifications');
  const { locale } = useLocale();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  useNotificationFeed(signedIn);
  const latest = useQuery({
    queryKey: notificationKeys.latest,
    queryFn: notificationsApi.latest,
    enabled: signedIn,
    // Pushes keep it current; asking again now and then covers a push lost to a bug.
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });
  const openOne = useOpenNotification(() => setOpen(false));
  const unread = latest.data?.unread ?? 0;
  const label = unread > 0 ? t('bell.labelUnread', { count: formatNumber(unread, locale) }) : t('bell.label');
  const items = latest.data?.items ?? [];
  // The number itself (in the user's digits) says the count; the badge's colour only adds to it.
  const badgeText = unread > 99 ? `${formatNumber(99, locale)}+` : formatNumber(unread, locale);

  const content = (
    <div className="notification-panel" data-testid="notification-panel">
      <Flex justify="space-between" align="center" className="notification-panel-head">
        <Typography.Text strong>{t('bell.title')}</Typography.Text>
        <Button
          type="link"
          size="small"
          disabled={unread === 0}
          onClick={() => void markRead(client, { all: true }).catch(() => undefined)}
          data-testid="notifications-mark-all"
        >
          {t('bell.markAll')}
        </Button>
      </Flex>
      {latest.isPending ? (
        <Flex justify="center" className="notification-panel-empty">
          <Spin />
        </Flex>
      ) : latest.isError ? (
        <Typography.Text type="danger" className="notification-panel-empty">
          {t('bell.failed')}
        </Typography.Text>
      ) : items.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('bell.empty')}
          className="notification-panel-empty"
        />
      ) : (
        <ul className="notification-list" aria-label={t('bell.title')}>
          {items.map((n) => (
            <li key={n.id}>
              <NotificationRow notification={n} onOpen={openOne} />
            </li>
          ))}
        </ul>
      )}
      <Flex justify="center" className="notification-panel-foot">
        <Button
          type="link"
          onClick={() => {
            setOpen(false);
            void navigate(PAGES.notifications);
          }}
          data-testid="notifications-see-all"
        >
          {t('bell.seeAll')}
        </Button>
      </Flex>
    </div>
  );

  return (
    <Popover
      content={content}
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      arrow={false}
      destroyOnHidden
    >
      <Button
        type="text"
        className="notification-bell"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="notification-bell"
        // Only once the count is known: a 0 while it loads is a count nobody had (a test reading it then
        // waited for 0 + 1 while the real count was 28).
        data-unread={latest.data ? unread : undefined}
      >
        <Badge count={unread > 0 ? badgeText : 0} size="small" title={label} data-testid="notification-count">
          <BellOutlined className="notification-bell-icon" />
        </Badge>
        {/* Said when the count changes, whatever has the focus. */}
        <span className="notification-sr-only" aria-live="polite" data-testid="notification-announce">
          {unread > 0 ? label : ''}
        </span>
      </Button>
    </Popover>
  );
}
