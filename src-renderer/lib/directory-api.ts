/**
 * The Employee Centre calls (docs/api.md, "Employee centre"), typed with the schemas the server validates
 * with (src-shared/api/directory.ts), the react-query keys the screens invalidate after a change, and
 * the bilingual name helpers (each language shows names in its own script).
 */
import type {
  ConfigureDepartmentRequest,
  CreateDepartmentRequest,
  CreateEmployeeRequest,
  CreateJobRequest,
  CreateSecretaryOfficeRequest,
  Department,
  DepartmentOption,
  DepartmentType,
  DepartmentTree,
  DepartmentTreeQuery,
  Employee,
  EmployeeAttachment,
  EmployeeDashboard,
  EmployeeOption,
  Job,
  JobOption,
  PhotoDataUrl,
  SecretaryOffice,
  UpdateDepartmentRequest,
  UpdateEmployeeRequest,
  UpdateJobRequest,
  UpdateSecretaryOfficeRequest,
} from '../../src-shared/api/directory';
import { http } from './http';
import { downloadFile, uploadFile } from '../components/upload/transfer';

/** Cache keys: invalidate `directoryKeys.all` after a change that others may show (names, trees). */
export const directoryKeys = {
  all: ['directory'] as const,
  employees: ['directory', 'employees'] as const,
  employee: (id: number) => ['directory', 'employees', id] as const,
  attachments: (id: number) => ['directory', 'employees', id, 'attachments'] as const,
  photo: (id: number) => ['directory', 'employees', id, 'photo'] as const,
  dashboard: ['directory', 'employees', 'dashboard'] as const,
  employeeOptions: (q: string, departmentId?: number) =>
    ['directory', 'employees', 'options', q, departmentId ?? null] as const,
  jobs: ['directory', 'jobs'] as const,
  jobOptions: ['directory', 'jobs', 'options'] as const,
  departments: ['directory', 'departments'] as const,
  departmentOptions: (type?: DepartmentType, includeInactive = false) =>
    ['directory', 'departments', 'options', type ?? 'all', includeInactive] as const,
  departmentTree: (query: DepartmentTreeQuery) => ['directory', 'departments', 'tree', query] as const,
  department: (id: number) => ['directory', 'departments', id] as const,
  secretaryOffices: ['directory', 'secretary-offices'] as const,
};

export const DIRECTORY_ENDPOINTS = {
  employees: '/ec/employees',
  jobs: '/ec/jobs',
  departments: '/ec/departments',
  secretaryOffices: '/ec/secretary-offices',
} as const;

const E = DIRECTORY_ENDPOINTS;

/** Largest picture the client sends (the server resizes it to PHOTO_MAX_SIDE anyway). */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

export const directoryApi = {
  jobOptions: () => http.get<JobOption[]>(`${E.jobs}/options`),
  createJob: (body: CreateJobRequest) => http.post<Job>(E.jobs, body),
  updateJob: (id: number, body: UpdateJobRequest) => http.put<Job>(`${E.jobs}/${id}`, body),
  setJobActive: (id: number, active: boolean) => http.put<Job>(`${E.jobs}/${id}/active`, { active }),

  departmentTree: (query: DepartmentTreeQuery = {}) =>
    http.get<DepartmentTree>(`${E.departments}/tree`, {
      query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')),
    }),
  /** Flat picker rows (any signed-in user), active only unless asked. */
  departmentOptions: (type?: DepartmentType, includeInactive = false) =>
    http.get<DepartmentOption[]>(`${E.departments}/options`, {
      query: {
        ...(type ? { type } : {}),
        ...(includeInactive ? { includeInactive: true } : {}),
        limit: 5000,
      },
    }),
  department: (id: number) => http.get<Department>(`${E.departments}/${id}`),
  createDepartment: (body: Partial<CreateDepartmentRequest>) => http.post<Department>(E.departments, body),
  updateDepartment: (id: number, body: UpdateDepartmentRequest) =>
    http.put<Department>(`${E.departments}/${id}`, body),
  configureDepartment: (id: number, body: ConfigureDepartmentRequest) =>
    http.put<Department>(`${E.departments}/${id}/configure`, body),
  setDepartmentActive: (id: number, active: boolean, cascade = false) =>
    http.put<Department>(
      `${E.departments}/${id}/active`,
      { active },
      cascade ? { query: { cascade: true } } : {},
    ),

  employeeOptions: (q: string, departmentId?: number) =>
    http.get<EmployeeOption[]>(`${E.employees}/options`, {
      query: { ...(q ? { q } : {}), ...(departmentId ? { departmentId } : {}), limit: 50 },
    }),
  dashboard: () => http.get<EmployeeDashboard>(`${E.employees}/dashboard`),
  employee: (id: number) => http.get<Employee>(`${E.employees}/${id}`),
  createEmployee: (body: Partial<CreateEmployeeRequest>) =>
    http.post<Employee>(E.employees, body, { suppressErrorToast: true }),
  updateEmployee: (id: number, body: UpdateEmployeeRequest) =>
    http.put<Employee>(`${E.employees}/${id}`, body, { suppressErrorToast: true }),
  setEmployeeActive: (id: number, active: boolean) =>
    http.put<Employee>(`${E.employees}/${id}/active`, { active }),
  photo: (id: number) =>
    http.get<PhotoDataUrl>(`${E.employees}/${id}/photo`, {
      query: { format: 'dataUrl' },
      suppressErrorToast: true,
    }),
  uploadPhoto: (id: number, file: File) =>
    uploadFile<unknown>(`${E.employees}/${id}/photo`, file, { method: 'PUT', field: 'file' }),
  deletePhoto: (id: number) => http.delete<void>(`${E.employees}/${id}/photo`),

  attachments: (id: number) => http.get<EmployeeAttachment[]>(`${E.employees}/${id}/attachments`),
  uploadAttachment: (id: number, file: File) =>
    uploadFile<EmployeeAttachment>(`${E.employees}/${id}/attachments`, file),
  downloadAttachment: (id: number, attachmentId: number) =>
    downloadFile(`${E.employees}/${id}/attachments/${attachmentId}`),
  deleteAttachment: (id: number, attachmentId: number) =>
    http.delete<void>(`${E.employees}/${id}/attachments/${attachmentId}`),

  createSecretaryOffice: (body: CreateSecretaryOfficeRequest) =>
    http.post<SecretaryOffice>(E.secretaryOffices, body),
  updateSecretaryOffice: (id: number, body: UpdateSecretaryOfficeRequest) =>
    http.put<SecretaryOffice>(`${E.secretaryOffices}/${id}`, body),
  setSecretaryOfficeActive: (id: number, active: boolean) =>
    http.put<SecretaryOffice>(`${E.secretaryOffices}/${id}/active`, { active }),
};

export { localName, otherName } from './names';
