/**
 * Shared harness of the administration component tests: the providers a screen needs (antd App for
 * confirm dialogs, react-query, the interface language's provider in i18next's current language) and a fake of the http helpers that answers by method and path, so a
 * test declares the server it talks to and reads back the calls made.
 */
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { LocaleProvider } from '../../src-renderer/app/locale';
import { i18n } from '../../src-renderer/lib/i18n';

export type Handler = (body: unknown, query: unknown) => unknown;
export type Routes = Record<string, Handler>;

/** One recorded call. */
export interface Call {
  method: string;
  path: string;
  body?: unknown;
  query?: unknown;
}

/** A fake http object: `routes['GET /auth/users']` answers; a thrown error rejects like ApiError. */
export function fakeHttp(routes: Routes) {
  const calls: Call[] = [];
  const answer = (method: string, path: string, body?: unknown, query?: unknown) => {
    calls.push({ method, path, body, query });
    const handler = routes[`${method} ${path}`];
    if (!handler)
      return Promise.reject(
        Object.assign(new Error(`no route ${method} ${path}`), { status: 404, fieldErrors: {} }),
      );
    try {
      return Promise.resolve(handler(body, query));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const http = {
    get: vi.fn((path: string, options?: { query?: unknown }) =>
      answer('GET', path, undefined, options?.query),
    ),
    post: vi.fn((path: string, body?: unknown) => answer('POST', path, body)),
    put: vi.fn((path: string, body?: unknown) => answer('PUT', path, body)),
    patch: vi.fn((path: string, body?: unknown) => answer('PATCH', path, body)),
    delete: vi.fn((path: string) => answer('DELETE', path)),
  };
  return { http, calls };
}

/** A rejected call as the http helpers throw it: status and per-field messages. */
export function apiError(status: number, fieldErrors: Record<string, string[]>) {
  return Object.assign(new Error('Some fields are not valid'), {
    status,
    fieldErrors,
    problem: { detail: 'Some fields are not valid' },
  });
}

/** Renders a screen inside the providers. */
export function renderScreen(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <LocaleProvider initial={i18n.language === 'en' ? 'en' : 'ar'}>
      <ConfigProvider>
        <AntApp>
          <QueryClientProvider client={client}>{node}</QueryClientProvider>
        </AntApp>
      </ConfigProvider>
    </LocaleProvider>,
  );
}

/** A page of a list answer. */
export function pageOf<T>(items: T[]) {
  return { items, total: items.length, page: 1, pageSize: 20 };
}

export const ROLES = [
  {
    id: 1,
    nameAr: 'مدير النظام',
    nameEn: 'Administrator',
    active: true,
    requireTwoFactor: false,
    isSystem: true,
    userCount: 1,
    createdAt: '2025-01-01T08:00:00.000Z',
    updatedAt: '2025-01-01T08:00:00.000Z',
  },
  {
    id: 2,
    nameAr: 'كاتب',
    nameEn: 'Clerk',
    active: true,
    requireTwoFactor: true,
    isSystem: false,
    userCount: 3,
    createdAt: '2025-02-01T08:00:00.000Z',
    updatedAt: '2025-02-01T08:00:00.000Z',
  },
];

export const USERS = [
  {
    id: 1,
    username: 'admin',
    email: 'admin@example.org',
    nameAr: 'المدير',
    nameEn: 'Admin',
    role: { id: 1, nameAr: 'مدير النظام', nameEn: 'Administrator' },
    active: true,
    locale: 'ar' as const,
    useTotp: true,
    employeeId: null,
    clearance: null,
    lastSignInAt: '2025-03-01T09:30:00.000Z',
    createdAt: '2025-01-01T08:00:00.000Z',
    updatedAt: '2025-01-01T08:00:00.000Z',
  },
  {
    id: 2,
    username: 'sara',
    email: 'sara@example.org',
    nameAr: 'سارة',
    nameEn: 'Sara',
    role: { id: 2, nameAr: 'كاتب', nameEn: 'Clerk' },
    active: false,
    locale: 'en' as const,
    useTotp: false,
    employeeId: null,
    clearance: { id: 31, nameAr: 'سري', nameEn: 'Secret', level: 3 },
    lastSignInAt: null,
    createdAt: '2025-02-01T08:00:00.000Z',
    updatedAt: '2025-02-01T08:00:00.000Z',
  },
];

export const SECTIONS = [
  {
    id: 10,
    parentId: null,
    nameAr: 'إدارة النظام',
    nameEn: 'Administration',
    path: '/auth',
    icon: 'SafetyCertificateOutlined',
    order: 10,
    availablePermissions: ['view' as const],
    children: [
      {
        id: 11,
        parentId: 10,
        nameAr: 'المستخدمون',
        nameEn: 'Users',
        path: '/auth/users',
        icon: 'UserOutlined',
        order: 10,
        availablePermissions: ['view' as const, 'add' as const, 'edit' as const, 'activate' as const],
      },
      {
        id: 12,
        parentId: 10,
        nameAr: 'سجل التدقيق',
        nameEn: 'Audit Log',
        path: '/auth/audit',
        icon: 'HistoryOutlined',
        order: 20,
        availablePermissions: ['view' as const, 'export' as const],
      },
    ],
  },
  {
    id: 20,
    parentId: null,
    nameAr: 'مركز الموظفين',
    nameEn: 'Employee Center',
    path: '/ec',
    icon: 'TeamOutlined',
    order: 20,
    availablePermissions: ['view' as const],
    children: [
      {
        id: 21,
        parentId: 20,
        nameAr: 'الوظائف',
        nameEn: 'Jobs',
        path: '/ec/jobs',
        icon: 'IdcardOutlined',
        order: 10,
        availablePermissions: ['view' as const, 'add' as const],
      },
    ],
  },
];
