/**
 * Add, edit and view an employee in a drawer at the inline end, with the specification's tabs: basic
 * info (names in both scripts, phone, date of birth, profile picture), employment info (hire date, type,
 * user account — none, create one with its role and password in the same step, or link an existing
 * one), job info (department, job) and attachments. View is the same form read-only, so the two never
 * drift apart. Validation uses the server's schemas; the server's field errors land on their fields and
 * the tab holding the first error is opened.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Avatar,
  Button,
  DatePicker,
  Drawer,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Tabs,
  Typography,
  Upload,
} from 'antd';
import { CameraOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { User } from '../../../src-shared/api/admin';
import {
  EMPLOYEE_TYPES,
  createEmployeeRequestSchema,
  newEmployeeUserSchema,
  type Employee,
  type EmployeeType,
  type UpdateEmployeeRequest,
} from '../../../src-shared/api/directory';
import { PASSWORD_MIN } from '../../../src-shared/api/fields';
import { DepartmentPicker } from '../../components/DepartmentPicker';
import { isImageBytes, readBytes, formatSize } from '../../components/upload/transfer';
import { http } from '../../lib/http';
import { toast, userAction } from '../../lib/toast';
import { adminApi, adminKeys } from '../../lib/admin-api';
import { PHOTO_MAX_BYTES, directoryApi, directoryKeys, localName } from '../../lib/directory-api';
import { EmployeeAttachments } from './EmployeeAttachments';
import { applyServerErrors, confirmationRule, directoryRule, requiredRule } from './forms';
import { DATE_FORMAT } from '../../lib/format';
import { useLocalisedForm } from '../../lib/forms';

const fields = createEmployeeRequestSchema.shape;
const userFields = newEmployeeUserSchema.shape;

type AccountMode = 'none' | 'create' | 'link' | 'keep' | 'unlink';

interface EmployeeValues {
  firstNameAr: string;
  lastNameAr: string;
  firstNameEn: string;
  lastNameEn: string;
  phoneNumber: string;
  dateOfBirth: string | null;
  hireDate: string | null;
  employeeType: EmployeeType;
  departmentId?: number;
  jobId?: number;
  account: AccountMode;
  username?: string;
  email?: string;
  roleId?: number;
  password?: string;
  passwordConfirmation?: string;
  userId?: number;
}

/** Which tab holds a field, to open the one with the first error. */
const TAB_OF: Record<string, string> = {
  firstNameAr: 'basic',
  lastNameAr: 'basic',
  firstNameEn: 'basic',
  lastNameEn: 'basic',
  phoneNumber: 'basic',
  dateOfBirth: 'basic',
  hireDate: 'employment',
  employeeType: 'employment',
  account: 'employment',
  username: 'employment',
  email: 'employment',
  roleId: 'employment',
  password: 'employment',
  passwordConfirmation: 'employment',
  userId: 'employment',
  user: 'employment',
  departmentId: 'job',
  jobId: 'job',
};

/** A date-only field through antd's DatePicker: `YYYY-MM-DD` in the form, a Dayjs in the picker. */
const dateProps = {
  getValueProps: (value: string | null | undefined) => ({ value: value ? dayjs(value) : null }),
  normalize: (value: Dayjs | null) => (value ? value.format('YYYY-MM-DD') : null),
};

/** What the drawer shows: a new employee, or one by id to view or edit. */
export type EmployeeDrawerState = { mode: 'new' } | { mode: 'view' | 'edit'; id: number };

/** The employee drawer. `canEdit` lets the view switch to editing. */
export function EmployeeDrawer({
  state,
  canEdit,
  onClose,
  onSaved,
  onEdit,
}: {
  state: EmployeeDrawerState | null;
  canEdit: boolean;
  onClose: () => void;
  onSaved: (employee: Employee) => void;
  onEdit: (id: number) => void;
}) {
  const { t, i18n } = useTranslation('directory');
  const [form] = useLocalisedForm<EmployeeValues>();
  const [tab, setTab] = useState('basic');
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const [photo, setPhoto] = useState<{ file: File; url: string } | null>(null);
  // Why a chosen photo was refused, worded when shown (it follows the language).
  const [photoError, setPhotoError] = useState<'size' | 'type' | null>(null);
  const id = state && state.mode !== 'new' ? state.id : null;
  const readOnly = state?.mode === 'view';
  const rtl = i18n.language === 'ar';

  const employee = useQuery({
    queryKey: directoryKeys.employee(id ?? 0),
    queryFn: () => directoryApi.employee(id!),
    enabled: id !== null,
  });
  const current = id !== null ? employee.data : undefined;
  const storedPhoto = useQuery({
    queryKey: directoryKeys.photo(id ?? 0),
    queryFn: () => directoryApi.photo(id!),
    enabled: id !== null && current?.hasPhoto === true,
    retry: false,
  });
  const jobs = useQuery({
    queryKey: [...directoryKeys.jobOptions, i18n.language],
    queryFn: directoryApi.jobOptions,
  });
  const account = Form.useWatch('account', form) as AccountMode | undefined;

  useEffect(() => {
    if (!state) return;
    setTab('basic');
    setFailed(false);
    setPhoto(null);
    setPhotoError(null);
    form.resetFields();
    if (state.mode === 'new') {
      form.setFieldsValue({
        firstNameAr: '',
        lastNameAr: '',
        firstNameEn: '',
        lastNameEn: '',
        phoneNumber: '',
        dateOfBirth: null,
        hireDate: dayjs().format('YYYY-MM-DD'),
        employeeType: 'permanent',
        account: 'none',
      });
    } else if (current) {
      form.setFieldsValue({
        firstNameAr: current.firstNameAr,
        lastNameAr: current.lastNameAr,
        firstNameEn: current.firstNameEn,
        lastNameEn: current.lastNameEn,
        phoneNumber: current.phoneNumber ?? '',
        dateOfBirth: current.dateOfBirth,
        hireDate: current.hireDate,
        employeeType: current.employeeType,
        departmentId: current.department.id,
        jobId: current.job.id,
        account: current.user ? 'keep' : 'none',
      });
    }
  }, [state, current, form]);

  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.url) : undefined), [photo]);

  const choosePhoto = async (file: File) => {
    setPhotoError(null);
    if (file.size > PHOTO_MAX_BYTES) {
      setPhotoError('size');
      return;
    }
    if (!isImageBytes(await readBytes(file.slice(0, 12)))) {
      setPhotoError('type');
      return;
    }
    setPhoto({ file, url: URL.createObjectURL(file) });
  };

  // The employee and their photo are saved by one click: one toast.
  const save = () => userAction(saveNow);

  const saveNow = async () => {
    let values: EmployeeValues;
    try {
      values = await form.validateFields();
    } catch (error) {
      const first = (error as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) setTab(TAB_OF[String(first.name[0])] ?? 'basic');
      setFailed(true);
      return;
    }
    setFailed(false);
    const base = {
      firstNameAr: values.firstNameAr.trim(),
      lastNameAr: values.lastNameAr.trim(),
      firstNameEn: values.firstNameEn.trim(),
      lastNameEn: values.lastNameEn.trim(),
      phoneNumber: values.phoneNumber?.trim() ? values.phoneNumber.trim() : null,
      dateOfBirth: values.dateOfBirth ?? null,
      hireDate: values.hireDate ?? null,
      employeeType: values.employeeType,
      departmentId: values.departmentId!,
      jobId: values.jobId!,
    };
    const user =
      values.account === 'create'
        ? {
            username: values.username!.trim(),
            email: values.email!.trim(),
            roleId: values.roleId!,
            password: values.password!,
            passwordConfirmation: values.passwordConfirmation!,
          }
        : undefined;
    setSaving(true);
    try {
      let saved: Employee;
      if (id === null) {
        const body = {
          ...base,
          ...(user ? { user } : {}),
          ...(values.account === 'link' && values.userId ? { userId: values.userId } : {}),
        };
        saved = await directoryApi.createEmployee(body);
      } else {
        const body: UpdateEmployeeRequest = {
          ...base,
          ...(user ? { user } : {}),
          ...(values.account === 'link' && values.userId ? { userId: values.userId } : {}),
          ...(values.account === 'unlink' ? { userId: null } : {}),
        };
        saved = await directoryApi.updateEmployee(id, body);
      }
      if (photo) await directoryApi.uploadPhoto(saved.id, photo.file).catch(() => undefined);
      onSaved(saved);
    } catch (error) {
      const marked = applyServerErrors(form, error);
      const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {};
      // `user.username` → the username field on the employment tab.
      const userErrors = Object.entries(fieldErrors)
        .filter(([name]) => name.startsWith('user.'))
        .map(([name, errors]) => ({ name: name.slice(5), errors }));
      if (userErrors.length) form.setFields(userErrors as never);
      const first = Object.keys(fieldErrors)[0];
      if (first) setTab(TAB_OF[first.split('.')[0]!] ?? 'basic');
      setFailed(marked || userErrors.length > 0);
      if (!marked && userErrors.length === 0) {
        // Not a field problem: say it once at the top.
        setFailed(false);
        toast({ severity: 'error', detail: (error as Error).message });
      }
    } finally {
      setSaving(false);
    }
  };

  const name = current ? localName(current, i18n.language) : '';
  const title =
    state?.mode === 'new'
      ? t('employees.addTitle')
      : state?.mode === 'edit'
        ? t('employees.editTitle', { name })
        : t('employees.viewTitle', { name });
  const photoUrl = photo?.url ?? storedPhoto.data?.dataUrl;

  const nameInput = (
    field: 'firstNameAr' | 'lastNameAr' | 'firstNameEn' | 'lastNameEn',
    lang: 'ar' | 'en',
  ) => (
    <Form.Item
      name={field}
      label={t(`employees.fields.${field}`)}
      required={!readOnly}
      rules={[directoryRule(fields[field], t)]}
    >
      <Input dir={lang === 'ar' ? 'rtl' : 'ltr'} lang={lang} data-testid={`employee-${field}`} />
    </Form.Item>
  );

  const basic = (
    <>
      <div className="directory-photo">
        <Avatar size={72} src={photoUrl} icon={<UserOutlined />} data-testid="employee-photo" />
        <Space orientation="vertical" size={4}>
          {!readOnly && (
            <Upload
              accept="image/png,image/jpeg,image/webp,image/gif"
              showUploadList={false}
              beforeUpload={(file) => {
                void choosePhoto(file);
                return false;
              }}
            >
              <Button icon={<CameraOutlined />} data-testid="employee-photo-choose">
                {t('employees.fields.photoChange')}
              </Button>
            </Upload>
          )}
          {photo && <Typography.Text type="secondary">{t('employees.fields.photoPending')}</Typography.Text>}
          {photoError && (
            <Typography.Text type="danger" data-testid="employee-photo-error">
              {photoError === 'size'
                ? t('validation.fileSize', { maxSize: formatSize(PHOTO_MAX_BYTES) })
                : t('validation.imageOnly')}
            </Typography.Text>
          )}
        </Space>
      </div>
      <div className="directory-form-row">
        {nameInput('firstNameAr', 'ar')}
        {nameInput('lastNameAr', 'ar')}
      </div>
      <div className="directory-form-row">
        {nameInput('firstNameEn', 'en')}
        {nameInput('lastNameEn', 'en')}
      </div>
      <div className="directory-form-row">
        <Form.Item
          name="phoneNumber"
          label={t('employees.fields.phoneNumber')}
          rules={[directoryRule(fields.phoneNumber.unwrap(), t, { optional: true })]}
        >
          <Input dir="ltr" inputMode="tel" data-testid="employee-phoneNumber" />
        </Form.Item>
        <Form.Item name="dateOfBirth" label={t('employees.fields.dateOfBirth')} {...dateProps}>
          <DatePicker
            format={DATE_FORMAT}
            style={{ inlineSize: '100%' }}
            disabledDate={(d) => d.isAfter(dayjs())}
            data-testid="employee-dateOfBirth"
          />
        </Form.Item>
      </div>
    </>
  );

  const accountOptions: { value: AccountMode; label: string }[] = current?.user
    ? [
        { value: 'keep', label: t('employees.fields.accountKeep') },
        { value: 'unlink', label: t('employees.fields.accountUnlink') },
      ]
    : [
        { value: 'none', label: t('employees.fields.accountNone') },
        { value: 'create', label: t('employees.fields.accountCreate') },
        { value: 'link', label: t('employees.fields.accountLink') },
      ];

  const employment = (
    <>
      <div className="directory-form-row">
        <Form.Item name="hireDate" label={t('employees.fields.hireDate')} {...dateProps}>
          <DatePicker format={DATE_FORMAT} style={{ inlineSize: '100%' }} data-testid="employee-hireDate" />
        </Form.Item>
        <Form.Item name="employeeType" label={t('employees.fields.employeeType')} rules={[requiredRule(t)]}>
          <Select
            data-testid="employee-employeeType"
            options={EMPLOYEE_TYPES.map((type) => ({ value: type, label: t(`employees.types.${type}`) }))}
          />
        </Form.Item>
      </div>
      <Form.Item name="account" label={t('employees.fields.account')}>
        <Radio.Group options={accountOptions} data-testid="employee-account" />
      </Form.Item>
      {current?.user && (
        <Typography.Paragraph data-testid="employee-linked-user">
          <UserOutlined /> <bdi dir="ltr">{current.user.username}</bdi> —{' '}
          {localName(current.user.role, i18n.language)}
        </Typography.Paragraph>
      )}
      {readOnly && !current?.user && (
        <Typography.Paragraph type="secondary">{t('employees.fields.noAccount')}</Typography.Paragraph>
      )}
      {account === 'create' && !readOnly && <NewAccountFields />}
      {account === 'link' && !readOnly && (
        <Form.Item name="userId" label={t('employees.fields.user')} rules={[requiredRule(t)]}>
          <UserLinkSelect />
        </Form.Item>
      )}
    </>
  );

  const job = (
    <>
      <Form.Item name="departmentId" label={t('employees.fields.department')} rules={[requiredRule(t)]}>
        <DepartmentPicker type="internal" data-testid="employee-department" />
      </Form.Item>
      <Form.Item name="jobId" label={t('employees.fields.job')} rules={[requiredRule(t)]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="employee-job"
          loading={jobs.isLoading}
          options={[
            ...(jobs.data ?? []).map((j) => ({ value: j.id, label: localName(j, i18n.language) })),
            ...(current && !(jobs.data ?? []).some((j) => j.id === current.job.id)
              ? [{ value: current.job.id, label: localName(current.job, i18n.language) }]
              : []),
          ]}
        />
      </Form.Item>
    </>
  );

  return (
    <Drawer
      open={state !== null}
      onClose={onClose}
      title={title}
      placement={rtl ? 'left' : 'right'}
      size={720}
      destroyOnHidden
      data-testid="employee-drawer"
      extra={
        readOnly ? (
          canEdit && id !== null ? (
            <Button type="primary" onClick={() => onEdit(id)} data-testid="employee-edit-from-view">
              {t('actions.edit')}
            </Button>
          ) : null
        ) : (
          <Space>
            <Button onClick={onClose}>{t('actions.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="employee-save">
              {t('actions.save')}
            </Button>
          </Space>
        )
      }
    >
      {failed && (
        <Alert type="error" showIcon title={t('employees.fixErrors')} style={{ marginBlockEnd: 12 }} />
      )}
      <Form form={form} layout="vertical" disabled={readOnly} data-testid="employee-form">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: 'basic', label: t('employees.tabs.basic'), children: basic, forceRender: true },
            {
              key: 'employment',
              label: t('employees.tabs.employment'),
              children: employment,
              forceRender: true,
            },
            { key: 'job', label: t('employees.tabs.job'), children: job, forceRender: true },
            {
              key: 'attachments',
              label: t('employees.tabs.attachments'),
              children:
                id === null ? (
                  <Alert type="info" showIcon title={t('employees.saveFirst')} />
                ) : (
                  <EmployeeAttachments employeeId={id} editable={!readOnly && canEdit} />
                ),
            },
          ]}
        />
      </Form>
    </Drawer>
  );
}

/** The fields of a new account: username, email, role, password and its confirmation. */
function NewAccountFields() {
  const { t, i18n } = useTranslation('directory');
  const roles = useQuery({ queryKey: adminKeys.roleOptions, queryFn: adminApi.roleOptions });
  return (
    <>
      <div className="directory-form-row">
        <Form.Item
          name="username"
          label={t('employees.fields.username')}
          required
          rules={[directoryRule(userFields.username, t)]}
        >
          <Input dir="ltr" autoComplete="off" data-testid="employee-username" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('employees.fields.email')}
          required
          rules={[directoryRule(userFields.email, t)]}
        >
          <Input dir="ltr" type="email" autoComplete="off" data-testid="employee-email" />
        </Form.Item>
      </div>
      <Form.Item name="roleId" label={t('employees.fields.role')} rules={[requiredRule(t)]}>
        <Select
          data-testid="employee-role"
          loading={roles.isLoading}
          options={(roles.data?.items ?? [])
            .filter((r) => r.active)
            .map((r) => ({ value: r.id, label: localName(r, i18n.language) }))}
        />
      </Form.Item>
      <div className="directory-form-row">
        <Form.Item
          name="password"
          label={t('employees.fields.password')}
          required
          rules={[directoryRule(userFields.password, t)]}
          extra={t('admin:validation.minLength', { min: PASSWORD_MIN })}
        >
          <Input.Password autoComplete="new-password" data-testid="employee-password" />
        </Form.Item>
        <Form.Item
          name="passwordConfirmation"
          label={t('employees.fields.passwordConfirmation')}
          required
          dependencies={['password']}
          rules={[confirmationRule('password', t)]}
        >
          <Input.Password autoComplete="new-password" data-testid="employee-passwordConfirmation" />
        </Form.Item>
      </div>
    </>
  );
}

/** An existing user account to link, searched on the users list (those the administrator may see). */
function UserLinkSelect({ value, onChange }: { value?: number; onChange?: (value: number) => void }) {
  const { t } = useTranslation('directory');
  const [q, setQ] = useState('');
  const users = useQuery({
    queryKey: [...adminKeys.users, 'link', q],
    queryFn: () =>
      http.get<{ items: User[] }>('/auth/users', {
        query: { q, pageSize: 20, sort: 'username' },
        suppressErrorToast: true,
      }),
  });
  const options = useMemo(
    () =>
      (users.data?.items ?? [])
        .filter((u) => u.employeeId === null || u.employeeId === undefined)
        .map((u) => ({ value: u.id, label: `${u.username} — ${u.email}` })),
    [users.data],
  );
  return (
    <Select<number>
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      loading={users.isFetching}
      placeholder={t('pickers.user')}
      showSearch={{ filterOption: false, onSearch: setQ }}
      data-testid="employee-user-link"
    />
  );
}
