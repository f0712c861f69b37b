/**
 * HTTP routes of the Employee Centre, from their endpoints (src-shared/api/directory.ts; docs/api.md,
 * "Employee centre"): /ec/jobs, /ec/departments, /ec/employees and /ec/secretary-offices, each declaring
 * its page and permission; the pickers are open to any signed-in user. Rules live in service.ts.
 */
import { directoryEndpoints as E, photoDataUrlSchema } from '../../../src-shared/api/directory';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { route } from '../../http/route';
import { sendStoredFile } from '../../http/send-file';
import { pdfReceiver, readSingleUpload } from '../../http/upload';
import { metaOf } from '../auth/service';
import * as dir from './service';

export const directoryModule: AppModule = {
  name: 'directory',
  prefix: '/ec',
  routes: (app, ctx) => {
    // ------------------------------------------------------------ jobs
    route(app, E.listJobs, async (request) => dir.listJobs(ctx, request.query));
    route(app, E.jobOptions, async (request) => dir.jobOptions(ctx, request.locale));
    route(app, E.getJob, async (request) => dir.getJob(ctx, request.params.id));
    route(app, E.createJob, async (request) =>
      dir.createJob(ctx, callerOf(request), request.body, metaOf(request)),
    );
    route(app, E.updateJob, async (request) =>
      dir.updateJob(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );
    route(app, E.setJobActive, async (request) =>
      dir.setJobActive(ctx, callerOf(request), request.params.id, request.body.active, metaOf(request)),
    );

    // ------------------------------------------------------------ departments
    route(app, E.departmentTree, async (request, reply) => {
      // The tree is built from typed rows; re-validating hundreds of recursive nodes with zod on every
      // answer would cost more than the query, so it is sent as JSON already (the declared schema still
      // documents it in OpenAPI).
      const tree = await dir.departmentTree(ctx, request.query);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(envelope(request, tree)));
    });
    route(app, E.departmentOptions, async (request) =>
      dir.departmentOptions(ctx, request.query, request.locale),
    );
    route(app, E.listDepartments, async (request) => dir.listDepartments(ctx, request.query));
    route(app, E.getDepartment, async (request) => dir.getDepartment(ctx, request.params.id));
    route(app, E.createDepartment, async (request) =>
      dir.createDepartment(ctx, callerOf(request), request.body, metaOf(request)),
    );
    route(app, E.updateDepartment, async (request) =>
      dir.updateDepartment(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );
    route(app, E.setDepartmentActive, async (request) =>
      dir.setDepartmentActive(
        ctx,
        callerOf(request),
        request.params.id,
        request.body.active,
        request.query.cascade ?? false,
        metaOf(request),
      ),
    );
    route(app, E.configureDepartment, async (request) =>
      dir.configureDepartment(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );

    // ------------------------------------------------------------ employees
    route(app, E.dashboard, async () => dir.dashboard(ctx));
    route(app, E.employeeOptions, async (request) => dir.employeeOptions(ctx, request.query, request.locale));
    route(app, E.listEmployees, async (request) => dir.listEmployees(ctx, request.query));
    route(app, E.getEmployee, async (request) => dir.getEmployee(ctx, request.params.id));
    route(app, E.createEmployee, async (request) =>
      dir.createEmployee(ctx, callerOf(request), request.body, metaOf(request)),
    );
    route(app, E.updateEmployee, async (request) =>
      dir.updateEmployee(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );
    route(app, E.setEmployeeActive, async (request) =>
      dir.setEmployeeActive(ctx, callerOf(request), request.params.id, request.body.active, metaOf(request)),
    );
    route(app, E.setPhoto, async (request) => {
      const { bytes } = await readSingleUpload(request);
      return dir.setPhoto(ctx, callerOf(request), request.params.id, bytes, metaOf(request));
    });
    route(app, E.removePhoto, async (request) =>
      dir.removePhoto(ctx, callerOf(request), request.params.id, metaOf(request)),
    );
    route(app, E.getPhoto, async (request, reply) => {
      const photo = await dir.getPhoto(ctx, request.params.id);
      reply.header('cache-control', 'private, max-age=300');
      if (request.query.format === 'dataUrl') {
        const body = photoDataUrlSchema.parse({
          dataUrl: `data:${photo.mime};base64,${photo.bytes.toString('base64')}`,
        });
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(envelope(request, body)));
      }
      return reply.type(photo.mime).send(photo.bytes);
    });
    route(app, E.listAttachments, async (request) => dir.listAttachments(ctx, request.params.id));
    route(app, E.addAttachment, async (request) => {
      const pdf = pdfReceiver(request, ctx);
      return dir
        .addAttachment(ctx, callerOf(request), request.params.id, pdf.receive, metaOf(request))
        .finally(pdf.discard);
    });
    route(app, E.downloadAttachment, async (request, reply) => {
      const { attachment, open } = await dir.openAttachment(ctx, request.params);
      return sendStoredFile(
        request,
        reply,
        { ...attachment, contentType: 'application/pdf', disposition: 'attachment' },
        open,
      );
    });
    route(app, E.deleteAttachment, async (request) => {
      await dir.deleteAttachment(ctx, callerOf(request), request.params, metaOf(request));
      return null;
    });

    // ------------------------------------------------------------ secretary offices
    route(app, E.listOffices, async (request) => dir.listOffices(ctx, request.query));
    route(app, E.getOffice, async (request) => dir.getOffice(ctx, request.params.id));
    route(app, E.createOffice, async (request) =>
      dir.createOffice(ctx, callerOf(request), request.body, metaOf(request)),
    );
    route(app, E.updateOffice, async (request) =>
      dir.updateOffice(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );
    route(app, E.setOfficeActive, async (request) =>
      dir.setOfficeActive(ctx, callerOf(request), request.params.id, request.body.active, metaOf(request)),
    );
  },
};
