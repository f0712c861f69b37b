/**
 * /user/notifications (PAGES.notifications, every user's own page): all of the user's notifications,
 * newest first, a page at a time (older ones by `before`), unread only if they wish, each opening its
 * document; and their settings: per kind whether it reaches them in the app, on the desktop and by
 * e-mail, and the daily digest with its hour.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Empty, Flex, Select, Space, Spin, Switch, Table, Typography } from 'antd';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  NOTIFICATION_KINDS,
  channelsOf,
  type KindChannels,
  type NotificationKind,
  type NotificationSettings,
} from '../../../src-shared/api/notifications';
import { useLocale } from '../../app/locale';
import { getBridge } from '../../lib/bridge';
import { formatNumber } from '../../lib/format';
import { toast } from '../../lib/toast';
import { NotificationRow, useOpenNotification } from './NotificationBell';
import { PAGE_SIZE, markRead, notificationKeys, notificationsApi } from './notifications';
import './notifications.css';

/** The route's screen. */
export function Component() {
  const { t } = useTranslation('notifications');
  return (
    <Flex vertical gap={16} data-testid="notifications-page">
      <Typography.Title level={3} className="page-title" data-testid="page-title">
        {t('page.title')}
      </Typography.Title>
      <NotificationList />
      <NotificationSettingsCard />
    </Flex>
  );
}

function NotificationList() {
  const { t } = useTranslation('notifications');
  const client = useQueryClient();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const open = useOpenNotification();
  const pages = useInfiniteQuery({
    queryKey: notificationKeys.pages(unreadOnly),
    queryFn: ({ pageParam }) =>
      notificationsApi.list({
        limit: PAGE_SIZE,
        ...(pageParam !== null ? { before: pageParam } : {}),
        ...(unreadOnly ? { unread: true } : {}),
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.more && last.items.length ? last.items.at(-1)!.id : undefined),
  });
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const unread = pages.data?.pages[0]?.unread ?? 0;

  return (
    <Card
      title={t('page.all')}
      extra={
        <Space wrap>
          <label>
            <Space>
              <Switch checked={unreadOnly} onChange={setUnreadOnly} data-testid="notifications-unread-only" />
              {t('page.onlyUnread')}
            </Space>
          </label>
          <Button
            disabled={unread === 0}
            onClick={() => void markRead(client, { all: true }).catch(() => undefined)}
            data-testid="notifications-page-mark-all"
          >
            {t('bell.markAll')}
          </Button>
        </Space>
      }
    >
      {pages.isPending ? (
        <Flex justify="center">
          <Spin />
        </Flex>
      ) : pages.isError ? (
        <Alert type="error" showIcon title={t('bell.failed')} />
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('page.empty')} />
      ) : (
        <ul className="notification-page-list" data-testid="notifications-page-list">
          {items.map((n) => (
            <li key={n.id}>
              <NotificationRow notification={n} onOpen={open} />
            </li>
          ))}
        </ul>
      )}
      {pages.hasNextPage ? (
        <Flex justify="center">
          <Button
            loading={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
            data-testid="notifications-more"
          >
            {t('page.more')}
          </Button>
        </Flex>
      ) : null}
    </Card>
  );
}

const CHANNELS = ['app', 'desktop', 'email'] as const satisfies readonly (keyof KindChannels)[];

function NotificationSettingsCard() {
  const { t } = useTranslation('notifications');
  const { locale } = useLocale();
  const client = useQueryClient();
  const stored = useQuery({ queryKey: notificationKeys.settings, queryFn: notificationsApi.settings });
  const [draft, setDraft] = useState<NotificationSettings | null>(null);
  const [saving, setSaving] = useState(false);
  const [host, setHost] = useState<'electron' | 'web' | null>(null);
  useEffect(() => {
    let live = true;
    void getBridge()
      .appInfo()
      .then((result) => {
        if (live && result.ok) setHost(result.data.host);
      });
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (stored.data) setDraft(stored.data);
  }, [stored.data]);

  if (stored.isPending || !draft)
    return (
      <Card title={t('settings.title')}>
        {stored.isError ? <Alert type="error" showIcon title={t('bell.failed')} /> : <Spin />}
      </Card>
    );

  const setChannel = (kind: NotificationKind, channel: keyof KindChannels, on: boolean) =>
    setDraft({ ...draft, kinds: { ...draft.kinds, [kind]: { ...channelsOf(draft, kind), [channel]: on } } });
  const save = async () => {
    setSaving(true);
    try {
      const saved = await notificationsApi.saveSettings(draft);
      client.setQueryData(notificationKeys.settings, saved);
      toast({ severity: 'success', summary: t('settings.saved') });
    } catch {
      // the http helpers have said what went wrong
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('settings.title')} data-testid="notification-settings">
      <Flex vertical gap={12}>
        {host === 'web' ? <Alert type="info" showIcon title={t('settings.desktopNote')} /> : null}
        <Table
          rowKey="kind"
          size="small"
          pagination={false}
          dataSource={NOTIFICATION_KINDS.map((kind) => ({ kind }))}
          columns={[
            {
              key: 'kind',
              title: t('settings.kind'),
              render: (_v, { kind }) => t(`kinds.${kind}.name`),
            },
            ...CHANNELS.map((channel) => ({
              key: channel,
              title: t(`settings.${channel}`),
              align: 'center' as const,
              render: (_v: unknown, { kind }: { kind: NotificationKind }) => (
                <Switch
                  size="small"
                  checked={channelsOf(draft, kind)[channel]}
                  onChange={(on) => setChannel(kind, channel, on)}
                  aria-label={`${t(`kinds.${kind}.name`)}: ${t(`settings.${channel}`)}`}
                  data-testid={`notify-${kind}-${channel}`}
                />
              ),
            })),
          ]}
        />
        <Space wrap>
          <label>
            <Space>
              <Switch
                checked={draft.digest}
                onChange={(digest) => setDraft({ ...draft, digest })}
                data-testid="notify-digest"
              />
              {t('settings.digest')}
            </Space>
          </label>
          <Space>
            <span id="notify-digest-hour-label">{t('settings.digestHour')}</span>
            <Select
              className="notification-settings-hour"
              value={draft.digestHour}
              disabled={!draft.digest}
              onChange={(digestHour: number) => setDraft({ ...draft, digestHour })}
              aria-labelledby="notify-digest-hour-label"
              data-testid="notify-digest-hour"
              options={Array.from({ length: 24 }, (_, hour) => ({
                value: hour,
                label: `${formatNumber(hour, locale).padStart(2, formatNumber(0, locale))}:${formatNumber(0, locale)}${formatNumber(0, locale)}`,
              }))}
            />
          </Space>
        </Space>
        <Flex justify="end">
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="notify-save">
            {t('settings.save')}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
