/**
 * Working week, deadline settings and holidays (issue 28): the days of the organisation's weekend, how
 * many working days a reply is due in by priority and when the manager is told of one overdue, the days
 * an approver has per step and when reminders go, and the holidays — entered in Hijri or Gregorian, a
 * yearly one once — listed with both calendars side by side. Read-only without the page's edit permission.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  type ButtonProps,
  Card,
  Checkbox,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  deadlinesEndpoints as D,
  type DeadlineSettings,
  type DeadlineSettingsView,
  type Holiday,
} from '../../../../src-shared/api/deadlines';
import { HOLIDAY_CALENDARS, type HolidayCalendar } from '../../../../src-shared/api/notifications-kinds';
import { PAGES } from '../../../../src-shared/pages';
import { formatDay } from '../../../../src-shared/working-days';
import { useCanOn } from '../../../app/permissions';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { LoadFailed } from '../../../components/LoadFailed';
import { call } from '../../../lib/call';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { localName } from '../../../lib/names';
import { settingsApi } from '../documents/api';
import {
  convertTyped,
  formFromSettings,
  otherCalendarOf,
  settingsFromForm,
  weekOrder,
  weekdayName,
  type DeadlineFormValues,
} from './deadlines-form';

const SETTINGS_KEY = ['deadlines', 'settings'] as const;
const HOLIDAYS_KEY = ['deadlines', 'holidays'] as const;
const PRIORITIES_KEY = ['deadlines', 'priorities'] as const;

export function Component() {
  const { t } = useTranslation('deadlines');
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: () => call(D.settings) });
  const mayEdit = useCanOn(PAGES.deadlineSettings, 'edit');
  return (
    <CorrespondenceScreen testId="deadline-settings" subtitle={t('description')}>
      {settings.isLoading ? (
        <Spin />
      ) : !settings.data ? (
        <LoadFailed onRetry={() => void settings.refetch()} testId="deadline-settings-failed" />
      ) : (
        <div className="corr-stack">
          <WeekCard view={settings.data} mayEdit={mayEdit} />
          <DeadlinesCard view={settings.data} mayEdit={mayEdit} />
          <HolidaysCard mayEdit={mayEdit} />
        </div>
      )}
    </CorrespondenceScreen>
  );
}

/** Saves the whole settings (each card changes its part) and keeps the answer as the cache. */
function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeadlineSettings) => call(D.saveSettings, { body }),
    onSuccess: (data) => queryClient.setQueryData(SETTINGS_KEY, data),
  });
}

function WeekCard({ view, mayEdit }: { view: DeadlineSettingsView; mayEdit: boolean }) {
  const { t, i18n } = useTranslation('deadlines');
  const [weekend, setWeekend] = useState<number[]>(view.settings.weekend);
  useEffect(() => setWeekend(view.settings.weekend), [view]);
  const save = useSaveSettings();
  const changed = [...weekend].sort().join() !== [...view.settings.weekend].sort().join();
  return (
    <Card size="small" title={t('week.title')} data-testid="deadline-week-card">
      <Typography.Paragraph type="secondary">{t('week.hint')}</Typography.Paragraph>
      <Checkbox.Group
        value={weekend}
        disabled={!mayEdit}
        onChange={(days) => setWeekend(days)}
        options={weekOrder(i18n.language).map((day) => ({
          value: day,
          label: weekdayName(day, i18n.language),
        }))}
        data-testid="deadline-weekend"
      />
      {weekend.length === 7 && (
        <Typography.Paragraph type="danger" style={{ marginBlockStart: 8 }}>
          {t('week.allOff')}
        </Typography.Paragraph>
      )}
      {mayEdit && (
        <Flex style={{ marginBlockStart: 12 }}>
          <Button
            type="primary"
            disabled={!changed || weekend.length === 7}
            loading={save.isPending}
            onClick={() => save.mutate({ ...view.settings, weekend })}
            data-testid="deadline-week-save"
          >
            {t('save')}
          </Button>
        </Flex>
      )}
    </Card>
  );
}

interface PriorityRow {
  key: string;
  id: number | null;
  name: string;
}

function DeadlinesCard({ view, mayEdit }: { view: DeadlineSettingsView; mayEdit: boolean }) {
  const { t, i18n } = useTranslation('deadlines');
  const [form] = useLocalisedForm<DeadlineFormValues>();
  const priorities = useQuery({ queryKey: PRIORITIES_KEY, queryFn: () => settingsApi.options('priorities') });
  const ids = useMemo(() => (priorities.data ?? []).map((p) => p.id), [priorities.data]);
  useEffect(() => {
    form.setFieldsValue(formFromSettings(view.settings, ids));
  }, [form, view, ids]);
  const save = useSaveSettings();
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync(
        settingsFromForm(view.settings, form.getFieldsValue(true) as DeadlineFormValues),
      );
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  const rows: PriorityRow[] = [
    ...(priorities.data ?? []).map((p) => ({
      key: String(p.id),
      id: p.id,
      name: localName(p, i18n.language),
    })),
    { key: 'default', id: null, name: t('deadlines.noPriority') },
  ];
  const days = (name: (string | number)[], min: number, placeholder?: number) => (
    <Form.Item name={name} noStyle>
      <InputNumber
        min={min}
        max={400}
        precision={0}
        placeholder={placeholder === undefined ? undefined : String(placeholder)}
        aria-label={t('deadlines.days')}
        style={{ inlineSize: 96 }}
      />
    </Form.Item>
  );
  return (
    <Card size="small" title={t('deadlines.title')} data-testid="deadline-settings-card">
      <Form form={form} layout="vertical" disabled={!mayEdit}>
        <Typography.Paragraph type="secondary">{t('deadlines.hint')}</Typography.Paragraph>
        <Table<PriorityRow>
          size="small"
          pagination={false}
          loading={priorities.isLoading}
          dataSource={rows}
          data-testid="deadline-priorities"
          columns={[
            { key: 'name', title: t('deadlines.priority'), dataIndex: 'name' },
            {
              key: 'reply',
              title: t('deadlines.replyDays'),
              render: (_, row) =>
                row.id === null
                  ? days(['replyDaysDefault'], 0)
                  : days(['reply', row.key], 0, view.settings.replyDaysDefault),
            },
            {
              key: 'escalate',
              title: t('deadlines.escalateDays'),
              render: (_, row) =>
                row.id === null
                  ? days(['escalateAfterDaysDefault'], 1)
                  : days(['escalate', row.key], 1, view.settings.escalateAfterDaysDefault),
            },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ marginBlock: 8 }}>
          {t('deadlines.tableNote')}
        </Typography.Paragraph>
        <Space wrap size="large">
          <Form.Item
            name="approvalDaysPerStep"
            label={t('deadlines.approvalDays')}
            rules={[{ required: true, message: t('required') }]}
          >
            <InputNumber min={1} max={400} precision={0} data-testid="deadline-approval-days" />
          </Form.Item>
          <Form.Item
            name="remindDaysBefore"
            label={t('deadlines.remindDays')}
            extra={t('deadlines.remindHint')}
            rules={[{ required: true, message: t('required') }]}
          >
            <InputNumber min={0} max={30} precision={0} data-testid="deadline-remind-days" />
          </Form.Item>
        </Space>
        {mayEdit && (
          <Flex style={{ marginBlockStart: 12 }}>
            <Button
              type="primary"
              onClick={() => void submit()}
              loading={save.isPending}
              data-testid="deadline-save"
            >
              {t('save')}
            </Button>
          </Flex>
        )}
      </Form>
    </Card>
  );
}

// ---------------------------------------------------------------- holidays

interface HolidayValues {
  nameAr: string;
  nameEn: string;
  calendar: HolidayCalendar;
  startsOn: string;
  endsOn?: string;
  repeats: boolean;
}

function HolidaysCard({ mayEdit }: { mayEdit: boolean }) {
  const { t, i18n } = useTranslation('deadlines');
  const queryClient = useQueryClient();
  const holidays = useQuery({ queryKey: HOLIDAYS_KEY, queryFn: () => call(D.holidays) });
  const [editing, setEditing] = useState<Holiday | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => call(D.deleteHoliday, { params: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: HOLIDAYS_KEY }),
  });
  const lang = i18n.language === 'en' ? 'en' : 'ar';
  const both = (gregorian: string) => (
    <span>
      <span>{formatDay(gregorian, lang, 'gregorian')}</span>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {formatDay(gregorian, lang, 'hijri')}
      </Typography.Text>
    </span>
  );
  return (
    <Card
      size="small"
      title={t('holidays.title')}
      data-testid="deadline-holidays-card"
      extra={
        mayEdit && (
          <Button icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="holiday-add">
            {t('holidays.add')}
          </Button>
        )
      }
    >
      {holidays.isError ? (
        <LoadFailed onRetry={() => void holidays.refetch()} testId="holidays-failed" />
      ) : (
        <Table<Holiday>
          size="small"
          rowKey="id"
          loading={holidays.isLoading}
          dataSource={holidays.data ?? []}
          pagination={false}
          locale={{ emptyText: t('holidays.empty') }}
          data-testid="holidays-table"
          columns={[
            { key: 'name', title: t('holidays.name'), render: (_, h) => localName(h, i18n.language) },
            {
              key: 'from',
              title: t('holidays.startsOn'),
              render: (_, h) => both(h.startsOn),
            },
            {
              key: 'to',
              title: t('holidays.endsOn'),
              render: (_, h) => both(h.endsOn),
            },
            { key: 'days', title: t('holidays.days'), dataIndex: 'days' },
            {
              key: 'calendar',
              title: t('holidays.calendar'),
              render: (_, h) => (
                <Space size={4} wrap>
                  <Tag>{t(`calendars.${h.calendar}`)}</Tag>
                  {h.repeats && <Tag color="blue">{t('holidays.yearly')}</Tag>}
                </Space>
              ),
            },
            ...(mayEdit
              ? [
                  {
                    key: 'actions',
                    title: t('holidays.actions'),
                    render: (_: unknown, h: Holiday) => (
                      <Space size={4}>
                        <Button
                          size="small"
                          icon={<EditOutlined />}
                          aria-label={t('holidays.edit')}
                          onClick={() => setEditing(h)}
                          data-testid={`holiday-edit-${h.id}`}
                        />
                        <Popconfirm
                          title={t('holidays.confirmDelete')}
                          onConfirm={() => remove.mutateAsync(h.id)}
                        >
                          <Button
                            size="small"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label={t('holidays.delete')}
                            data-testid={`holiday-delete-${h.id}`}
                          />
                        </Popconfirm>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {editing !== null && <HolidayModal holiday={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function HolidayModal({ holiday, onClose }: { holiday: Holiday | 'new'; onClose: () => void }) {
  const { t, i18n } = useTranslation('deadlines');
  const queryClient = useQueryClient();
  const [form] = useLocalisedForm<HolidayValues>();
  const existing = holiday === 'new' ? null : holiday;
  const initial: HolidayValues = existing
    ? {
        nameAr: existing.nameAr,
        nameEn: existing.nameEn,
        calendar: existing.calendar,
        startsOn: existing.calendar === 'hijri' ? existing.hijriStartsOn : existing.startsOn,
        endsOn: existing.calendar === 'hijri' ? existing.hijriEndsOn : existing.endsOn,
        repeats: existing.repeats,
      }
    : { nameAr: '', nameEn: '', calendar: 'hijri', startsOn: '', endsOn: '', repeats: false };
  const calendar = Form.useWatch('calendar', form) ?? initial.calendar;
  const startsOn = Form.useWatch('startsOn', form);
  const endsOn = Form.useWatch('endsOn', form);
  const [shownCalendar, setShownCalendar] = useState<HolidayCalendar>(initial.calendar);
  // The switch converts what was typed, so the same days stay chosen.
  useEffect(() => {
    if (calendar === shownCalendar) return;
    const v = form.getFieldsValue(['startsOn', 'endsOn']);
    form.setFieldsValue({
      startsOn: convertTyped(v.startsOn, shownCalendar, calendar),
      endsOn: convertTyped(v.endsOn, shownCalendar, calendar),
    });
    setShownCalendar(calendar);
  }, [calendar, shownCalendar, form]);
  const save = useMutation({
    mutationFn: (v: HolidayValues) => {
      const body = { ...v, endsOn: v.endsOn?.trim() ? v.endsOn.trim() : undefined };
      return existing
        ? call(D.updateHoliday, { params: { id: existing.id }, body })
        : call(D.createHoliday, { body });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: HOLIDAYS_KEY });
      onClose();
    },
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    try {
      await save.mutateAsync(v);
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  const placeholder = calendar === 'hijri' ? '1448-10-01' : '2027-03-09';
  const preview = (typed: string | undefined) => {
    if (!typed?.trim()) return t('holidays.dateHint');
    return otherCalendarOf(calendar, typed, i18n.language) ?? t('holidays.notADay');
  };
  return (
    <Modal
      open
      title={existing ? t('holidays.edit') : t('holidays.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'holiday-save' } as ButtonProps}
      destroyOnHidden
      data-testid="holiday-modal"
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item
          name="nameAr"
          label={t('holidays.nameAr')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={200} dir="rtl" lang="ar" data-testid="holiday-name-ar" />
        </Form.Item>
        <Form.Item
          name="nameEn"
          label={t('holidays.nameEn')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={200} dir="ltr" lang="en" data-testid="holiday-name-en" />
        </Form.Item>
        <Form.Item name="calendar" label={t('holidays.calendar')}>
          <Radio.Group
            optionType="button"
            options={HOLIDAY_CALENDARS.map((c) => ({ value: c, label: t(`calendars.${c}`) }))}
            data-testid="holiday-calendar"
          />
        </Form.Item>
        <Flex gap={16} wrap>
          <Form.Item
            name="startsOn"
            label={t('holidays.startsOn')}
            extra={preview(startsOn)}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input dir="ltr" placeholder={placeholder} maxLength={10} data-testid="holiday-starts" />
          </Form.Item>
          <Form.Item
            name="endsOn"
            label={t('holidays.endsOn')}
            extra={endsOn?.trim() ? preview(endsOn) : t('holidays.oneDay')}
          >
            <Input dir="ltr" placeholder={placeholder} maxLength={10} data-testid="holiday-ends" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="repeats"
          label={t('holidays.repeats')}
          valuePropName="checked"
          extra={t(calendar === 'hijri' ? 'holidays.repeatsHijri' : 'holidays.repeatsGregorian')}
        >
          <Switch data-testid="holiday-repeats" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
