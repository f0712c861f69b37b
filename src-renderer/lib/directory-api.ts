/**
 * The Employee Centre calls (docs/api.md, "Employee centre"), typed with the schemas the server validates
 * with (src-shared/api/directory.ts), the react-query keys the screens invalidate after a change, and
 * the bilingual name helpers (each language shows names in its own script).
 */
import type { z } from 'zod';
import {
  type createDepartmentRequestSchema,
  type createEmployeeRequestSchema,
  directoryEndpoints,
  photoDataUrlSchema,
  type ConfigureDepartmentRequest,
  type CreateJobRequest,
  type CreateSecretaryOfficeRequest,
  type DepartmentType,
  type DepartmentTreeQuery,
  type EmployeeAttachment,
  type PhotoDataUrl,
  type UpdateDepartmentRequest,
  type UpdateEmployeeRequest,
  type UpdateJobRequest,
  type UpdateSecretaryOfficeRequest,
} from '../../src-shared/api/directory';
import { fillPath } from '../../src-shared/api/endpoint';
import { call } from './call';
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

/** The list endpoints' paths, for the screens' server-side tables. */
export const DIRECTORY_ENDPOINTS = {
  employees: directoryEndpoints.listEmployees.path,
  jobs: directoryEndpoints.listJobs.path,
  departments: directoryEndpoints.listDepartments.path,
  secretaryOffices: directoryEndpoints.listOffices.path,
} as const;

const E = directoryEndpoints;

/** Largest picture the client sends (the server resizes it to PHOTO_MAX_SIDE anyway). */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

export const directoryApi = {
  jobOptions: () => call(E.jobOptions),
  createJob: (body: CreateJobRequest) => call(E.createJob, { body }),
  updateJob: (id: number, body: UpdateJobRequest) => call(E.updateJob, { params: { id }, body }),
  setJobActive: (id: number, active: boolean) => call(E.setJobActive, { params: { id }, body: { active } }),

  departmentTree: (query: DepartmentTreeQuery = {}) =>
    call(E.departmentTree, {
      query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')),
    }),
  /** Flat picker rows (any signed-in user), active only unless asked. */
  departmentOptions: (type?: DepartmentType, includeInactive = false) =>
    call(E.departmentOptions, {
      query: {
        ...(type ? { type } : {}),
        ...(includeInactive ? { includeInactive: true } : {}),
        limit: 5000,
      },
    }),
  department: (id: number) => call(E.getDepartment, { params: { id } }),
  createDepartment: (body: z.input<typeof createDepartmentRequestSchema>) =>
    call(E.createDepartment, { body }),
  updateDepartment: (id: number, body: UpdateDepartmentRequest) =>
    call(E.updateDepartment, { params: { id }, body }),
  configureDepartment: (id: number, body: ConfigureDepartmentRequest) =>
    call(E.configureDepartment, { params: { id }, body }),
  setDepartmentActive: (id: number, active: boolean, cascade = false) =>
    call(E.setDepartmentActive, {
      params: { id },
      body: { active },
      ...(cascade ? { query: { cascade: true } } : {}),
    }),

  employeeOptions: (q: string, departmentId?: number) =>
    call(E.employeeOptions, {
      query: { ...(q ? { q } : {}), ...(departmentId ? { departmentId } : {}), limit: 50 },
    }),
  dashboard: () => call(E.dashboard),
  employee: (id: number) => call(E.getEmployee, { params: { id } }),
  createEmployee: (body: z.input<typeof createEmployeeRequestSchema>) =>
    call(E.createEmployee, { body }, { suppressErrorToast: true }),
  updateEmployee: (id: number, body: UpdateEmployeeRequest) =>
    call(E.updateEmployee, { params: { id }, body }, { suppressErrorToast: true }),
  setEmployeeActive: (id: number, active: boolean) =>
    call(E.setEmployeeActive, { params: { id }, body: { active } }),
  /** The picture as a data URL (the endpoint answers the image's bytes unless asked for JSON). */
  photo: (id: number) =>
    http.get<PhotoDataUrl>(fillPath(E.getPhoto.path, { id }), {
      query: { format: 'dataUrl' },
      answer: photoDataUrlSchema,
      suppressErrorToast: true,
    }),
  uploadPhoto: (id: number, file: File) =>
    uploadFile<unknown>(fillPath(E.setPhoto.path, { id }), file, { method: 'PUT', field: 'file' }),
  deletePhoto: (id: number) => call(E.removePhoto, { params: { id } }),

  attachments: (id: number) => call(E.listAttachments, { params: { id } }),
  uploadAttachment: (id: number, file: File) =>
    uploadFile<EmployeeAttachment>(fillPath(E.addAttachment.path, { id }), file),
  downloadAttachment: (id: number, attachmentId: number) =>
    downloadFile(fillPath(E.downloadAttachment.path, { id, attachmentId })),
  deleteAttachment: (id: number, attachmentId: number) =>
    call(E.deleteAttachment, { params: { id, attachmentId } }),

  createSecretaryOffice: (body: CreateSecretaryOfficeRequest) => call(E.createOffice, { body }),
  updateSecretaryOffice: (id: number, body: UpdateSecretaryOfficeRequest) =>
    call(E.updateOffice, { params: { id }, body }),
  setSecretaryOfficeActive: (id: number, active: boolean) =>
    call(E.setOfficeActive, { params: { id }, body: { active } }),
};

export { localName, otherName } from './names';
