/**
 * HTTP routes of the Employee Centre (docs/api.md, "Employee centre"): /ec/jobs, /ec/departments,
 * /ec/employees and /ec/secretary-offices, each declaring its page and permission. The pickers
 * (`/ec/departments/options`, `/ec/employees/options`, `/ec/jobs/options`) are open to any signed-in
 * user: every correspondence screen chooses departments and people, whatever the caller's directory
 * permissions; they answer names only.
 */
import { z } from 'zod';
import { envelopeOf, pageOf } from '../../../src-shared/api/envelope';
import {
  attachmentParamsSchema,
  configureDepartmentRequestSchema,
  createDepartmentRequestSchema,
  createEmployeeRequestSchema,
  createJobRequestSchema,
  createSecretaryOfficeRequestSchema,
  departmentActiveQuerySchema,
  departmentOptionSchema,
  departmentOptionsQuerySchema,
  departmentSchema,
  departmentTreeQuerySchema,
  departmentTreeSchema,
  directoryListQuerySchema,
  employeeAttachmentSchema,
  employeeDashboardSchema,
  employeeListItemSchema,
  employeeOptionSchema,
  employeeOptionsQuerySchema,
  employeeSchema,
  idParamsSchema,
  jobOptionSchema,
  jobSchema,
  photoDataUrlSchema,
  photoQuerySchema,
  secretaryOfficeSchema,
  setActiveSchema,
  updateDepartmentRequestSchema,
  updateEmployeeRequestSchema,
  updateJobRequestSchema,
  updateSecretaryOfficeRequestSchema,
} from '../../../src-shared/api/directory';
import type { Permission } from '../../../src-shared/permissions';
import { PAGES } from '../../../src-shared/pages';
import type { App, AppModule } from '../../app-type';
import type { ServerContext } from '../../context';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { metaOf } from '../auth/service';
import { sendStoredFile } from '../../http/send-file';
import { multipartSchema, pdfReceiver, readSingleUpload } from '../../http/upload';
import * as dir from './service';

const security = [{ bearer: [] }];
const on = (page: string, permission: Permission) => ({ access: { page, permission } });
const JOBS = PAGES.jobs;
const DEPARTMENTS = PAGES.departments;
const EMPLOYEES = PAGES.employees;
const OFFICES = PAGES.secretaryOffices;

/** `Content-Disposition` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987), e.g. Arabic names. */

/** Registers the Employee Centre routes. */
export function directoryRoutes(ctx: ServerContext) {
  return async (app: App) => {
    // ------------------------------------------------------------ jobs
    const jobs = { tags: ['jobs'], security };
    app.get(
      '/ec/jobs',
      {
        config: on(JOBS, 'view'),
        schema: {
          ...jobs,
          summary: 'List jobs',
          querystring: directoryListQuerySchema,
          response: { 200: envelopeOf(pageOf(jobSchema)) },
        },
      },
      async (request) => envelope(request, await dir.listJobs(ctx, request.query)),
    );
    app.get(
      '/ec/jobs/options',
      {
        config: { access: 'authenticated' },
        schema: {
          ...jobs,
          summary: 'Active jobs (pickers; any signed-in user)',
          response: { 200: envelopeOf(z.array(jobOptionSchema)) },
        },
      },
      async (request) => envelope(request, await dir.jobOptions(ctx, request.locale)),
    );
    app.get(
      '/ec/jobs/:id',
      {
        config: on(JOBS, 'view'),
        schema: {
          ...jobs,
          summary: 'One job',
          params: idParamsSchema,
          response: { 200: envelopeOf(jobSchema) },
        },
      },
      async (request) => envelope(request, await dir.getJob(ctx, request.params.id)),
    );
    app.post(
      '/ec/jobs',
      {
        config: on(JOBS, 'add'),
        schema: {
          ...jobs,
          summary: 'Add a job (names unique in each language)',
          body: createJobRequestSchema,
          response: { 201: envelopeOf(jobSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await dir.createJob(ctx, callerOf(request), request.body, metaOf(request)),
              'messages.jobCreated',
            ),
          ),
    );
    app.put(
      '/ec/jobs/:id',
      {
        config: on(JOBS, 'edit'),
        schema: {
          ...jobs,
          summary: 'Edit a job',
          params: idParamsSchema,
          body: updateJobRequestSchema,
          response: { 200: envelopeOf(jobSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.updateJob(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
          'messages.jobUpdated',
        ),
    );
    app.put(
      '/ec/jobs/:id/active',
      {
        config: on(JOBS, 'activate'),
        schema: {
          ...jobs,
          summary: 'Activate or deactivate a job',
          params: idParamsSchema,
          body: setActiveSchema,
          response: { 200: envelopeOf(jobSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.setJobActive(
            ctx,
            callerOf(request),
            request.params.id,
            request.body.active,
            metaOf(request),
          ),
          request.body.active ? 'messages.activated' : 'messages.deactivated',
        ),
    );

    // ------------------------------------------------------------ departments
    const departments = { tags: ['departments'], security };
    app.get(
      '/ec/departments/tree',
      {
        config: on(DEPARTMENTS, 'view'),
        // The tree is built here from typed rows; re-validating hundreds of recursive nodes with zod on
        // every answer would cost more than the query. The schema still documents it in OpenAPI.
        serializerCompiler: () => (data) => JSON.stringify(data),
        schema: {
          ...departments,
          summary: 'The department tree (search both languages, internal/external filter)',
          querystring: departmentTreeQuerySchema,
          response: { 200: envelopeOf(departmentTreeSchema) },
        },
      },
      async (request) => envelope(request, await dir.departmentTree(ctx, request.query)),
    );
    app.get(
      '/ec/departments/options',
      {
        config: { access: 'authenticated' },
        schema: {
          ...departments,
          summary: 'Department picker rows, flat with parentId (any signed-in user)',
          querystring: departmentOptionsQuerySchema,
          response: { 200: envelopeOf(z.array(departmentOptionSchema)) },
        },
      },
      async (request) => envelope(request, await dir.departmentOptions(ctx, request.query, request.locale)),
    );
    app.get(
      '/ec/departments',
      {
        config: on(DEPARTMENTS, 'view'),
        schema: {
          ...departments,
          summary: 'List departments',
          querystring: directoryListQuerySchema,
          response: { 200: envelopeOf(pageOf(departmentSchema)) },
        },
      },
      async (request) => envelope(request, await dir.listDepartments(ctx, request.query)),
    );
    app.get(
      '/ec/departments/:id',
      {
        config: on(DEPARTMENTS, 'view'),
        schema: {
          ...departments,
          summary: 'One department',
          params: idParamsSchema,
          response: { 200: envelopeOf(departmentSchema) },
        },
      },
      async (request) => envelope(request, await dir.getDepartment(ctx, request.params.id)),
    );
    app.post(
      '/ec/departments',
      {
        config: on(DEPARTMENTS, 'add'),
        schema: {
          ...departments,
          summary: 'Add a main department (no parent) or a department under a node',
          body: createDepartmentRequestSchema,
          response: { 201: envelopeOf(departmentSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await dir.createDepartment(ctx, callerOf(request), request.body, metaOf(request)),
              'messages.departmentCreated',
            ),
          ),
    );
    app.put(
      '/ec/departments/:id',
      {
        config: on(DEPARTMENTS, 'edit'),
        schema: {
          ...departments,
          summary: 'Edit or move a department (cycles refused)',
          params: idParamsSchema,
          body: updateDepartmentRequestSchema,
          response: { 200: envelopeOf(departmentSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.updateDepartment(
            ctx,
            callerOf(request),
            request.params.id,
            request.body,
            metaOf(request),
          ),
          'messages.departmentUpdated',
        ),
    );
    app.put(
      '/ec/departments/:id/active',
      {
        config: on(DEPARTMENTS, 'activate'),
        schema: {
          ...departments,
          summary: 'Activate or deactivate a department (?cascade=true deactivates its subtree)',
          params: idParamsSchema,
          querystring: departmentActiveQuerySchema,
          body: setActiveSchema,
          response: { 200: envelopeOf(departmentSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.setDepartmentActive(
            ctx,
            callerOf(request),
            request.params.id,
            request.body.active,
            request.query.cascade ?? false,
            metaOf(request),
          ),
          request.body.active ? 'messages.activated' : 'messages.deactivated',
        ),
    );
    app.put(
      '/ec/departments/:id/configure',
      {
        config: on(DEPARTMENTS, 'edit'),
        schema: {
          ...departments,
          summary: 'Configure archive office, manager and secretary office',
          params: idParamsSchema,
          body: configureDepartmentRequestSchema,
          response: { 200: envelopeOf(departmentSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.configureDepartment(
            ctx,
            callerOf(request),
            request.params.id,
            request.body,
            metaOf(request),
          ),
          'messages.departmentConfigured',
        ),
    );

    // ------------------------------------------------------------ employees
    const employees = { tags: ['employees'], security };
    app.get(
      '/ec/employees/dashboard',
      {
        config: on(EMPLOYEES, 'view'),
        schema: {
          ...employees,
          summary: 'Counts by department, job and type; recent hires',
          response: { 200: envelopeOf(employeeDashboardSchema) },
        },
      },
      async (request) => envelope(request, await dir.dashboard(ctx)),
    );
    app.get(
      '/ec/employees/options',
      {
        config: { access: 'authenticated' },
        schema: {
          ...employees,
          summary: 'Employee picker rows (active employees; any signed-in user)',
          querystring: employeeOptionsQuerySchema,
          response: { 200: envelopeOf(z.array(employeeOptionSchema)) },
        },
      },
      async (request) => envelope(request, await dir.employeeOptions(ctx, request.query, request.locale)),
    );
    app.get(
      '/ec/employees',
      {
        config: on(EMPLOYEES, 'view'),
        schema: {
          ...employees,
          summary: 'List employees (filters with match modes; q searches both scripts)',
          querystring: directoryListQuerySchema,
          response: { 200: envelopeOf(pageOf(employeeListItemSchema)) },
        },
      },
      async (request) => envelope(request, await dir.listEmployees(ctx, request.query)),
    );
    app.get(
      '/ec/employees/:id',
      {
        config: on(EMPLOYEES, 'view'),
        schema: {
          ...employees,
          summary: 'One employee',
          params: idParamsSchema,
          response: { 200: envelopeOf(employeeSchema) },
        },
      },
      async (request) => envelope(request, await dir.getEmployee(ctx, request.params.id)),
    );
    app.post(
      '/ec/employees',
      {
        config: on(EMPLOYEES, 'add'),
        schema: {
          ...employees,
          summary: 'Add an employee (optionally with a new user account, or linking one)',
          body: createEmployeeRequestSchema,
          response: { 201: envelopeOf(employeeSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await dir.createEmployee(ctx, callerOf(request), request.body, metaOf(request)),
              'messages.employeeCreated',
            ),
          ),
    );
    app.put(
      '/ec/employees/:id',
      {
        config: on(EMPLOYEES, 'edit'),
        schema: {
          ...employees,
          summary: 'Edit an employee (link, unlink or create the user account)',
          params: idParamsSchema,
          body: updateEmployeeRequestSchema,
          response: { 200: envelopeOf(employeeSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.updateEmployee(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
          'messages.employeeUpdated',
        ),
    );
    app.put(
      '/ec/employees/:id/active',
      {
        config: on(EMPLOYEES, 'activate'),
        schema: {
          ...employees,
          summary: 'Activate or deactivate an employee (deactivation also deactivates the account)',
          params: idParamsSchema,
          body: setActiveSchema,
          response: { 200: envelopeOf(employeeSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.setEmployeeActive(
            ctx,
            callerOf(request),
            request.params.id,
            request.body.active,
            metaOf(request),
          ),
          request.body.active ? 'messages.activated' : 'messages.deactivated',
        ),
    );
    app.put(
      '/ec/employees/:id/photo',
      {
        config: on(EMPLOYEES, 'edit'),
        schema: {
          ...employees,
          ...multipartSchema(),
          summary: 'Set the profile picture (multipart field "file"; an image, resized to 512 px, WebP)',
          params: idParamsSchema,
          response: { 200: envelopeOf(employeeSchema) },
        },
      },
      async (request) => {
        const { bytes } = await readSingleUpload(request);
        return envelope(
          request,
          await dir.setPhoto(ctx, callerOf(request), request.params.id, bytes, metaOf(request)),
          'messages.photoSaved',
        );
      },
    );
    app.delete(
      '/ec/employees/:id/photo',
      {
        config: on(EMPLOYEES, 'edit'),
        schema: {
          ...employees,
          summary: 'Remove the profile picture',
          params: idParamsSchema,
          response: { 200: envelopeOf(employeeSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.removePhoto(ctx, callerOf(request), request.params.id, metaOf(request)),
          'messages.photoRemoved',
        ),
    );
    app.get(
      '/ec/employees/:id/photo',
      {
        config: on(EMPLOYEES, 'view'),
        schema: {
          ...employees,
          summary: 'The profile picture (image/webp), or ?format=dataUrl for JSON',
          params: idParamsSchema,
          querystring: photoQuerySchema,
        },
      },
      async (request, reply) => {
        const photo = await dir.getPhoto(ctx, request.params.id);
        reply.header('cache-control', 'private, max-age=300');
        if (request.query.format === 'dataUrl') {
          const body = photoDataUrlSchema.parse({
            dataUrl: `data:${photo.mime};base64,${photo.bytes.toString('base64')}`,
          });
          return reply.type('application/json; charset=utf-8').send(JSON.stringify(envelope(request, body)));
        }
        return reply.type(photo.mime).send(photo.bytes);
      },
    );
    app.get(
      '/ec/employees/:id/attachments',
      {
        config: on(EMPLOYEES, 'view'),
        schema: {
          ...employees,
          summary: "An employee's PDF attachments",
          params: idParamsSchema,
          response: { 200: envelopeOf(z.array(employeeAttachmentSchema)) },
        },
      },
      async (request) => envelope(request, await dir.listAttachments(ctx, request.params.id)),
    );
    app.post(
      '/ec/employees/:id/attachments',
      {
        config: on(EMPLOYEES, 'edit'),
        schema: {
          ...employees,
          ...multipartSchema(),
          summary: 'Attach a PDF (multipart field "file"; checked by content: 415 otherwise, 413 too large)',
          params: idParamsSchema,
          response: { 201: envelopeOf(employeeAttachmentSchema) },
        },
      },
      async (request, reply) => {
        const pdf = pdfReceiver(request, ctx);
        const saved = await dir
          .addAttachment(ctx, callerOf(request), request.params.id, pdf.receive, metaOf(request))
          .finally(pdf.discard);
        return reply.status(201).send(envelope(request, saved, 'messages.attachmentAdded'));
      },
    );
    app.get(
      '/ec/employees/:id/attachments/:attachmentId',
      {
        config: on(EMPLOYEES, 'view'),
        schema: {
          ...employees,
          summary: 'Download an attachment (application/pdf)',
          params: attachmentParamsSchema,
        },
      },
      async (request, reply) => {
        const { attachment, open } = await dir.openAttachment(ctx, request.params);
        return sendStoredFile(
          request,
          reply,
          { ...attachment, contentType: 'application/pdf', disposition: 'attachment' },
          open,
        );
      },
    );
    app.delete(
      '/ec/employees/:id/attachments/:attachmentId',
      {
        config: on(EMPLOYEES, 'delete'),
        schema: {
          ...employees,
          summary: 'Remove an attachment',
          params: attachmentParamsSchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => {
        await dir.deleteAttachment(ctx, callerOf(request), request.params, metaOf(request));
        return envelope(request, null, 'messages.attachmentDeleted');
      },
    );

    // ------------------------------------------------------------ secretary offices
    const offices = { tags: ['secretary offices'], security };
    app.get(
      '/ec/secretary-offices',
      {
        config: on(OFFICES, 'view'),
        schema: {
          ...offices,
          summary: 'List secretary offices',
          querystring: directoryListQuerySchema,
          response: { 200: envelopeOf(pageOf(secretaryOfficeSchema)) },
        },
      },
      async (request) => envelope(request, await dir.listOffices(ctx, request.query)),
    );
    app.get(
      '/ec/secretary-offices/:id',
      {
        config: on(OFFICES, 'view'),
        schema: {
          ...offices,
          summary: 'One secretary office',
          params: idParamsSchema,
          response: { 200: envelopeOf(secretaryOfficeSchema) },
        },
      },
      async (request) => envelope(request, await dir.getOffice(ctx, request.params.id)),
    );
    app.post(
      '/ec/secretary-offices',
      {
        config: on(OFFICES, 'add'),
        schema: {
          ...offices,
          summary: 'Add a secretary office (one per department; the secretary an active employee)',
          body: createSecretaryOfficeRequestSchema,
          response: { 201: envelopeOf(secretaryOfficeSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await dir.createOffice(ctx, callerOf(request), request.body, metaOf(request)),
              'messages.secretaryOfficeCreated',
            ),
          ),
    );
    app.put(
      '/ec/secretary-offices/:id',
      {
        config: on(OFFICES, 'edit'),
        schema: {
          ...offices,
          summary: 'Edit a secretary office',
          params: idParamsSchema,
          body: updateSecretaryOfficeRequestSchema,
          response: { 200: envelopeOf(secretaryOfficeSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.updateOffice(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
          'messages.secretaryOfficeUpdated',
        ),
    );
    app.put(
      '/ec/secretary-offices/:id/active',
      {
        config: on(OFFICES, 'activate'),
        schema: {
          ...offices,
          summary: 'Activate or deactivate a secretary office',
          params: idParamsSchema,
          body: setActiveSchema,
          response: { 200: envelopeOf(secretaryOfficeSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await dir.setOfficeActive(
            ctx,
            callerOf(request),
            request.params.id,
            request.body.active,
            metaOf(request),
          ),
          request.body.active ? 'messages.activated' : 'messages.deactivated',
        ),
    );
  };
}

/** Not yet declared in src-shared/api: its routes carry their full paths (prefix ''). */
export const directoryModule: AppModule = {
  name: 'directory',
  prefix: '',
  routes: (app, ctx) => directoryRoutes(ctx)(app),
};
