/**
 * Station mode of this desk (user settings): the watched folders and the station's panel — how many
 * files are being written, queued, uploading, done, rejected and stuck, each upload's progress, pause
 * and resume, the files needing attention with their reason and a retry button, and the latest files
 * with a link to the draft each became. The station itself runs in main (src-main/station); this card
 * only asks it (`station:*` channels) every second and a half while it is on screen.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  Button,
  Card,
  Checkbox,
  Empty,
  Flex,
  Input,
  Progress,
  Space,
  Statistic,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import {
  DeleteOutlined,
  FolderOpenOutlined,
  PauseOutlined,
  PlusOutlined,
  ReloadOutlined,
  CaretRightOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import type {
  IpcResult,
  StationConfig,
  StationFileView,
  StationStatusView,
} from '../../../src-shared/ipc/contract';
import { PAGES } from '../../../src-shared/pages';
import { getBridge } from '../../lib/bridge';
import { formatDateTime, formatNumber } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useLocale } from '../../app/locale';
import { Ltr } from '../../components/Bidi';

const KEY = ['station', 'status'] as const;
/** Files of the uploads under way listed by name (a batch carries up to 32): the rest are counted. */
const SHOWN_IN_FLIGHT = 5;

/** The files in flight to list: those being sent now first, then those waiting their turn in a batch. */
function shownInFlight<T extends { sent: number; size: number }>(active: T[]): T[] {
  const sending = (a: T) => a.sent > 0 && a.sent < a.size;
  return [...active.filter(sending), ...active.filter((a) => !sending(a))].slice(0, SHOWN_IN_FLIGHT);
}
const COUNTS = ['waiting', 'queued', 'uploading', 'done', 'rejected', 'stuck'] as const;

/** A station channel's answer, or its error code (shown translated). */
async function call<T>(run: () => Promise<IpcResult<T>>) {
  const result = await run();
  if (!result.ok) throw new Error(result.error.code);
  return result.data;
}

export function StationCard() {
  const { t } = useTranslation('station');
  const { t: tc } = useTranslation();
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: KEY,
    queryFn: () => call(() => getBridge().stationStatus()),
    refetchInterval: 1500,
  });
  // A file the station has just filed changes documents and boxes the clerk may have open or open next:
  // their cached data (kept 30 s) is dropped, so what the station made shows at once. The key is the
  // correspondence screens' root (features/correspondence/documents/keys.ts `corrKeys.all`).
  // Files done before the panel opened are the baseline: only a change after it drops the cache.
  const lastFiled = status.data ? (status.data.recent.find((f) => f.state === 'done') ?? null) : undefined;
  const lastFiledKey =
    lastFiled === undefined ? undefined : lastFiled ? `${lastFiled.id}@${lastFiled.updatedAt}` : null;
  const seenFiled = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (lastFiledKey === undefined || lastFiledKey === seenFiled.current) return;
    const baseline = seenFiled.current === undefined;
    seenFiled.current = lastFiledKey;
    if (!baseline) void queryClient.invalidateQueries({ queryKey: ['correspondence'] });
  }, [lastFiledKey, queryClient]);
  const [draft, setDraft] = useState<StationConfig | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (status.data && draft === null) setDraft(status.data.config);
  }, [status.data, draft]);

  const update = (next: StationStatusView) => queryClient.setQueryData(KEY, next);
  const act = async (run: () => Promise<StationStatusView>, message?: string) => {
    try {
      update(await run());
      if (message) toast({ severity: 'success', detail: message });
    } catch (error) {
      toast({
        severity: 'error',
        detail: tc((error as Error).message, { defaultValue: tc('errors.unexpected') }),
      });
    }
  };

  /** The desktop has the system's folder dialog; a browser (the web shell) cannot name a local folder. */
  const nativeDialog = Boolean(window.sijill);
  /** Opens the folder dialog; the chosen folder replaces row `index`, or is added when index is null. */
  const browse = async (index: number | null) => {
    if (!draft) return;
    try {
      const { path } = await call(() => getBridge().stationChooseFolder());
      if (!path) return;
      const folders =
        index === null
          ? [...draft.folders.filter((f) => f.trim()), path]
          : draft.folders.map((f, i) => (i === index ? path : f));
      setDraft({ ...draft, folders });
    } catch (error) {
      toast({
        severity: 'error',
        detail: tc((error as Error).message, { defaultValue: tc('errors.unexpected') }),
      });
    }
  };

  if (!status.data || !draft) return <Card title={t('title')} loading data-testid="station-card" />;
  const s = status.data;
  const folders = draft.folders;
  const folderError = (path: string) => s.folders.find((f) => f.path === path);
  const canEnable = folders.some((f) => f.trim().length > 0);

  const save = async () => {
    setSaving(true);
    const config = { ...draft, folders: folders.map((f) => f.trim()).filter(Boolean) };
    await act(() => call(() => getBridge().stationConfigure(config)), t('saved'));
    setDraft(config);
    setSaving(false);
  };

  // The reason and the server's words in the interface's language only (never the other's words).
  const reasonOf = (f: StationFileView) => {
    if (!f.reason) return null;
    const detail = locale === 'ar' ? f.reason.detailAr : f.reason.detailEn;
    return (
      <Flex vertical>
        <Typography.Text>{locale === 'ar' ? f.reason.ar : f.reason.en}</Typography.Text>
        {detail ? <Typography.Text type="secondary">{detail}</Typography.Text> : null}
      </Flex>
    );
  };
  const fileName = (f: StationFileView) => (
    <bdi dir="auto" className="station-file-name">
      {f.name}
    </bdi>
  );

  return (
    <Card
      title={t('title')}
      data-testid="station-card"
      extra={
        s.running ? (
          <Space>
            <Tag color={s.paused ? 'orange' : s.ready ? 'green' : 'default'} data-testid="station-state">
              {s.paused ? t('paused') : s.ready ? t('running') : t('signedOut')}
            </Tag>
            {s.paused ? (
              <Button
                icon={<CaretRightOutlined />}
                onClick={() => void act(() => call(() => getBridge().stationResume()))}
                data-testid="station-resume"
              >
                {t('resume')}
              </Button>
            ) : (
              <Button
                icon={<PauseOutlined />}
                onClick={() => void act(() => call(() => getBridge().stationPause()))}
                data-testid="station-pause"
              >
                {t('pause')}
              </Button>
            )}
          </Space>
        ) : (
          <Tag data-testid="station-state">{t('off')}</Tag>
        )
      }
    >
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" className="station-intro">
          {/* Folder and file names are names on disk, the same in every language: left to right, whole. */}
          <Trans
            t={t}
            i18nKey="intro"
            components={{ folder: <Ltr className="station-path" />, file: <Ltr /> }}
          />{' '}
          {t('perDesk')}
        </Typography.Paragraph>

        <Flex vertical gap={8} data-testid="station-settings">
          <Space>
            <Switch
              checked={draft.enabled}
              disabled={!canEnable && !draft.enabled}
              onChange={(enabled) => setDraft({ ...draft, enabled })}
              data-testid="station-enabled"
              aria-label={t('enabled')}
            />
            <Typography.Text>{t('enabled')}</Typography.Text>
          </Space>
          {!canEnable ? <Typography.Text type="secondary">{t('folderRequired')}</Typography.Text> : null}
          <Typography.Text strong>{t('folders')}</Typography.Text>
          {folders.map((folder, index) => {
            const saved = folderError(folder);
            return (
              <Flex vertical gap={2} key={index}>
                <Space.Compact className="station-folder">
                  <Input
                    dir="ltr"
                    className="station-folder-input"
                    value={folder}
                    placeholder={t('folderPlaceholder')}
                    onChange={(e) =>
                      setDraft({
                        ...draft,
                        folders: folders.map((f, i) => (i === index ? e.target.value : f)),
                      })
                    }
                    data-testid={`station-folder-${index}`}
                    aria-label={t('folders')}
                  />
                  {nativeDialog ? (
                    <Button
                      icon={<FolderOpenOutlined />}
                      aria-label={t('browseFolder')}
                      title={t('browseFolder')}
                      onClick={() => void browse(index)}
                      data-testid={`station-folder-browse-${index}`}
                    />
                  ) : null}
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('removeFolder')}
                    onClick={() => setDraft({ ...draft, folders: folders.filter((_, i) => i !== index) })}
                    data-testid={`station-folder-remove-${index}`}
                  />
                </Space.Compact>
                {saved?.error ? (
                  <Typography.Text type="danger" data-testid={`station-folder-error-${index}`}>
                    {t(`folderErrors.${saved.error}`, { detail: saved.detail ?? '' })}
                  </Typography.Text>
                ) : null}
              </Flex>
            );
          })}
          <Space wrap>
            <Button
              icon={<PlusOutlined />}
              disabled={folders.length >= 10}
              onClick={() => setDraft({ ...draft, folders: [...folders, ''] })}
              data-testid="station-folder-add"
            >
              {t('addFolder')}
            </Button>
            {nativeDialog ? (
              <Button
                icon={<FolderOpenOutlined />}
                disabled={draft.folders.filter((f) => f.trim()).length >= 10}
                onClick={() => void browse(null)}
                data-testid="station-folder-choose"
              >
                {t('chooseFolder')}
              </Button>
            ) : null}
          </Space>
          <Checkbox
            checked={draft.polling}
            onChange={(e) => setDraft({ ...draft, polling: e.target.checked })}
            data-testid="station-polling"
          >
            {t('polling')}
          </Checkbox>
          <div>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="station-save">
              {t('save')}
            </Button>
          </div>
        </Flex>

        <Flex wrap gap={24} data-testid="station-counts">
          {COUNTS.map((key) => (
            <Statistic
              key={key}
              title={t(`counts.${key}`)}
              value={formatNumber(s.counts[key] ?? 0, locale)}
              data-testid={`station-count-${key}`}
            />
          ))}
        </Flex>

        {s.active.length ? (
          <Flex vertical gap={4} data-testid="station-active">
            {shownInFlight(s.active).map((a) => (
              <Flex key={a.id} gap={8} align="center">
                <bdi dir="auto" className="station-file-name">
                  {a.name}
                </bdi>
                <Progress
                  percent={a.size ? Math.min(100, Math.round((a.sent / a.size) * 100)) : 0}
                  size="small"
                  className="station-progress"
                  aria-label={t('progress')}
                />
              </Flex>
            ))}
            {s.active.length > SHOWN_IN_FLIGHT ? (
              <Typography.Text type="secondary" data-testid="station-active-more">
                {t('moreInFlight', { number: formatNumber(s.active.length - SHOWN_IN_FLIGHT, locale) })}
              </Typography.Text>
            ) : null}
          </Flex>
        ) : null}

        <Typography.Title level={5}>{t('problems')}</Typography.Title>
        {s.problems.length ? (
          <Table<StationFileView>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={s.problems}
            data-testid="station-problems"
            columns={[
              { title: t('file'), key: 'name', render: (_, f) => fileName(f) },
              { title: t('reasonLabel'), key: 'reason', render: (_, f) => reasonOf(f) },
              {
                title: t('state'),
                key: 'state',
                render: (_, f) => (
                  <Flex vertical align="start" gap={2}>
                    <Tag color={f.state === 'stuck' ? 'red' : 'orange'}>{t(`states.${f.state}`)}</Tag>
                    <Typography.Text type="secondary">{t('attempts', { count: f.attempts })}</Typography.Text>
                  </Flex>
                ),
              },
              {
                title: '',
                key: 'retry',
                render: (_, f) => (
                  <Button
                    icon={<ReloadOutlined />}
                    onClick={() =>
                      void act(() => call(() => getBridge().stationRetry({ id: f.id })), t('retried'))
                    }
                    data-testid={`station-retry-${f.id}`}
                  >
                    {t('retry')}
                  </Button>
                ),
              },
            ]}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noProblems')} />
        )}

        <Typography.Title level={5}>{t('recent')}</Typography.Title>
        {s.recent.length ? (
          <Table<StationFileView>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={s.recent}
            data-testid="station-recent"
            columns={[
              { title: t('file'), key: 'name', render: (_, f) => fileName(f) },
              {
                title: t('result'),
                key: 'result',
                render: (_, f) =>
                  f.state === 'done' ? (
                    <Space>
                      <Tag color="green">{t('states.done')}</Tag>
                      {f.documentId ? (
                        <Link to={`${PAGES.incoming}/${f.documentId}`} data-testid={`station-open-${f.id}`}>
                          {f.docNumber ? (
                            <bdi dir="ltr">{f.docNumber}</bdi>
                          ) : (
                            t('draft', { id: f.documentId })
                          )}
                        </Link>
                      ) : null}
                    </Space>
                  ) : (
                    <Flex vertical align="start" gap={2}>
                      <Tag color="red">{t('states.rejected')}</Tag>
                      {reasonOf(f)}
                    </Flex>
                  ),
              },
              {
                title: '',
                key: 'at',
                render: (_, f) => (
                  <Typography.Text type="secondary">
                    {formatDateTime(new Date(f.updatedAt).toISOString(), locale)}
                  </Typography.Text>
                ),
              },
            ]}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noRecent')} />
        )}
      </Flex>
    </Card>
  );
}
