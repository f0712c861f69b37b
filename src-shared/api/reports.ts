/**
 * Reports (issue 30): volumes, overdue items, approval turnaround and task completion over a period and
 * filters, shown as a table and exported to Excel or PDF by a background job the caller follows and then
 * downloads. Schemas and endpoints, shared by the server and the client (rules: src-server/modules/reports,
 * docs/reports.md).
 *
 * Against the shared plan (notes for the screens): the plan's shape is kept; added are the column type
 * `month` ('YYYY-MM') and `percent`, `offset`/`limit` on the table (a report may hold 100,000 rows; the
 * table answers a page of them, `total` counting all, and the export writes all), and the period's own
 * `from`/`to` in the answer. POST /reports/exports answers 201 (not 202: the endpoint declarations know
 * 200 and 201 only) with `{ id }`, and GET /reports/exports lists the caller's own exports. Text cells (names, directions, states) come in the caller's language
 * (Accept-Language), the export in the `lang` it asks for. Every row is about documents the caller may see.
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { DIRECTIONS } from './correspondence';
import { endpoint, fileAnswer } from './endpoint';
import { dateOnlyField, decimalParam, idParamsSchema, refIdField } from './fields';

/** The reports, as they appear in paths (GET /reports/{report}). */
export const REPORTS = ['volumes', 'overdue', 'approval-turnaround', 'task-completion'] as const;
export type ReportName = (typeof REPORTS)[number];

/**
 * What a column holds: text; a whole number; a day (`YYYY-MM-DD`); a number of working days (may have
 * decimals for an average); a month (`YYYY-MM`); a share from 0 to 100.
 */
export const COLUMN_TYPES = ['text', 'number', 'date', 'days', 'month', 'percent'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** A column: its stable key (the screens translate `reports.column.<key>`) and its type. */
export const reportColumnSchema = z.object({ key: z.string(), type: z.enum(COLUMN_TYPES) });
export type ReportColumn = z.infer<typeof reportColumnSchema>;

export const reportCellSchema = z.union([z.string(), z.number(), z.null()]);
export type ReportCell = z.infer<typeof reportCellSchema>;

/** The filters every report takes (the period is required, at most 3 years long: the server says so). */
export const reportFiltersSchema = z
  .object({
    from: dateOnlyField,
    to: dateOnlyField,
    departmentId: refIdField.optional(),
    direction: z.enum(DIRECTIONS).optional(),
    codificationId: refIdField.optional(),
  })
  .strict();
export type ReportFilters = z.infer<typeof reportFiltersSchema>;

/** GET /reports/{report}: the filters as query parameters, and the page of rows wanted. */
export const reportQuerySchema = z
  .object({
    from: dateOnlyField,
    to: dateOnlyField,
    departmentId: decimalParam(1).optional(),
    direction: z.enum(DIRECTIONS).optional(),
    codificationId: decimalParam(1).optional(),
    /** Rows to skip (default 0). */
    offset: decimalParam(0).optional(),
    /** Rows to answer (default 500, at most 1000). */
    limit: decimalParam(1, 1000).optional(),
  })
  .strict();
export type ReportQuery = z.input<typeof reportQuerySchema>;

export const reportParamsSchema = z.object({ report: z.enum(REPORTS) }).strict();

/** A report's answer: its columns, a page of its rows (cells in column order), and how many rows in all. */
export const reportSchema = z.object({
  report: z.enum(REPORTS),
  from: z.string(),
  to: z.string(),
  /** When it was computed (ISO instant); overdue items are judged on the organisation's day then. */
  asOf: z.string(),
  columns: z.array(reportColumnSchema),
  rows: z.array(z.array(reportCellSchema)),
  total: z.number().int(),
});
export type Report = z.infer<typeof reportSchema>;

// ---------------------------------------------------------------- exports

export const EXPORT_FORMATS = ['xlsx', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** POST /reports/exports: a report with its filters, to a format, in a language. */
export const exportRequestSchema = z
  .object({
    report: z.enum(REPORTS),
    format: z.enum(EXPORT_FORMATS),
    filters: reportFiltersSchema,
    lang: z.enum(['ar', 'en']),
  })
  .strict();
export type ExportRequest = z.input<typeof exportRequestSchema>;

/** An export as its requester follows it (only they may see it). */
export const reportExportSchema = z.object({
  id: z.number().int(),
  report: z.enum(REPORTS),
  format: z.enum(EXPORT_FORMATS),
  state: z.enum(EXPORT_STATES),
  /** 0..100. */
  progress: z.number(),
  /** Rows written so far (and in all, once done). */
  rows: z.number().int(),
  /** The download's name, once done. */
  fileName: z.string().optional(),
  /** Why it failed, in the caller's language. */
  error: z.string().optional(),
  createdAt: z.string(),
  /** Once done: until when the file may be downloaded (it is then removed). */
  expiresAt: z.string().optional(),
});
export type ReportExport = z.infer<typeof reportExportSchema>;

// ---------------------------------------------------------------- endpoints

const page = PAGES.reports;
const tags = ['reports'] as const;

export const reportsEndpoints = {
  report: endpoint({
    method: 'GET',
    path: '/reports/:report',
    params: reportParamsSchema,
    query: reportQuerySchema,
    response: reportSchema,
    access: { page, permission: 'view' },
    tags,
    summary: 'A report over a period and filters: its columns and a page of its rows',
  }),
  createExport: endpoint({
    method: 'POST',
    path: '/reports/exports',
    body: exportRequestSchema,
    response: z.object({ id: z.number().int() }),
    status: 201,
    message: 'reports.exportQueued',
    access: { page, permission: 'export' },
    tags,
    summary: 'Export a report to Excel or PDF: a background job, followed by its id',
  }),
  getExport: endpoint({
    method: 'GET',
    path: '/reports/exports/:id',
    params: idParamsSchema,
    response: reportExportSchema,
    access: { page, permission: 'export' },
    tags,
    summary: 'Where an export stands (its requester only)',
  }),
  listExports: endpoint({
    method: 'GET',
    path: '/reports/exports',
    response: z.array(reportExportSchema),
    access: { page, permission: 'export' },
    tags,
    summary: 'The caller’s own exports of the last days, newest first',
  }),
  exportFile: endpoint({
    method: 'GET',
    path: '/reports/exports/:id/file',
    params: idParamsSchema,
    response: fileAnswer,
    bytes: 'application/octet-stream',
    access: { page, permission: 'export' },
    tags,
    summary: 'The exported file (its requester only), once done',
  }),
} as const;
