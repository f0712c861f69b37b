/**
 * HTTP routes of the running server's backups, from their endpoints (src-shared/api/backups.ts). What
 * they do lives in service.ts.
 */
import { backupEndpoints as e } from '../../../src-shared/api/backups';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import * as backups from './service';

export const backupsModule: AppModule = {
  name: 'backups',
  prefix: '/admin',
  routes: (app, ctx) => {
    const by = (request: Parameters<typeof callerOf>[0] & { ip?: string }) => ({
      caller: callerOf(request),
      ip: request.ip ?? null,
    });
    route(app, e.list, async () => backups.listBackups(ctx));
    route(app, e.create, async (request) =>
      backups.makeBackup(ctx, by(request), (line) => request.log.info({ backup: line }, 'backup')),
    );
    route(app, e.verify, async (request) => backups.verifyBackupNamed(ctx, by(request), request.params.name));
    route(app, e.remove, async (request) => backups.removeBackupNamed(ctx, by(request), request.params.name));
    route(app, e.retention, async () => backups.backupRetention(ctx));
  },
};
