/**
 * Who read what over HTTP (issue 31 part 5), from its endpoints (src-shared/api/reads.ts): the reads of a
 * document and of a user (the audit page's view permission, enforced by the access hook), the download
 * and print copies of an attachment (recorded, watermarked above the lowest security level), and the
 * integrity check's findings. The recording of openings and views sits on the correspondence routes that
 * answer them (modules/correspondence/routes.ts); rules live in service.ts and integrity.ts.
 */
import { readsEndpoints as E } from '../../../src-shared/api/reads';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import { contentDisposition } from '../../http/send-file';
import { metaOf } from '../auth/service';
import { listIntegrityFailures } from './integrity';
import * as service from './service';

export const readsModule: AppModule = {
  name: 'reads',
  // Its paths start with /correspondence and /auth.
  prefix: '',
  routes: (app, ctx) => {
    route(app, E.documentReads, async (request) =>
      service.listReads(ctx, callerOf(request), { documentId: request.params.id }, request.query),
    );
    route(app, E.userReads, async (request) =>
      service.listReads(ctx, callerOf(request), { userId: request.params.id }, request.query),
    );
    for (const purpose of ['download', 'print'] as const) {
      route(
        app,
        purpose === 'download' ? E.downloadAttachment : E.printAttachment,
        async (request, reply) => {
          const copy = await service.attachmentCopy(
            ctx,
            callerOf(request),
            request.params.id,
            request.params.attachmentId,
            purpose,
            metaOf(request),
          );
          // Never cached: every copy is a recorded act, and a watermarked one names its reader and time.
          return reply
            .header('content-type', 'application/pdf')
            .header(
              'content-disposition',
              contentDisposition(purpose === 'download' ? 'attachment' : 'inline', copy.fileName),
            )
            .header('cache-control', 'no-store')
            .header('x-sijill-watermarked', copy.watermarked ? '1' : '0')
            .send(Buffer.from(copy.bytes.buffer, copy.bytes.byteOffset, copy.bytes.byteLength));
        },
      );
    }
    route(app, E.integrityFailures, async (request) =>
      listIntegrityFailures(ctx, callerOf(request), request.query),
    );
  },
};
