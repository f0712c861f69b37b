/**
 * Notifications over HTTP (issue 28): the caller's list, marking read, their settings, and the push
 * stream (server-sent events) fed by this server's hub.
 */
import {
  lastEventIdSchema,
  notificationEndpoints as E,
  readNotificationSettings,
  type Notification,
} from '../../../src-shared/api/notifications';
import type { App, AppModule } from '../../app-type';
import type { ServerContext } from '../../context';
import { notifyUnreadChanged } from '../../db/notices';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import { scope } from '../correspondence/common';
import { NotificationHub, type Stream } from './hub';
import * as q from './queries';

export const notificationsModule: AppModule = {
  name: 'notifications',
  prefix: '/notifications',
  routes: async (app: App, ctx: ServerContext) => {
    const hub = new NotificationHub({ db: ctx.db, listen: ctx.listen }, { log: app.log });
    app.addHook('onReady', () => hub.start());
    // Streams end before the server closes (else a close would wait on them).
    app.addHook('preClose', () => hub.stop());

    route(app, E.list, async (request) => {
      const caller = callerOf(request);
      const page = await q.listOf(ctx.db, await scope(ctx, caller), {
        before: request.query.before,
        limit: request.query.limit ?? 20,
        unreadOnly: request.query.unread === 'true',
      });
      return { ...page, unread: await q.unreadOf(ctx.db, caller.userId) };
    });

    route(app, E.read, async (request) => {
      const caller = callerOf(request);
      const changed = await q.markRead(
        ctx.db,
        caller.userId,
        'all' in request.body ? 'all' : request.body.ids,
      );
      // The user's other clients (another desk, the web shell) update their count.
      if (changed) await notifyUnreadChanged(ctx.db, caller.userId);
      return { unread: await q.unreadOf(ctx.db, caller.userId) };
    });

    route(app, E.settings, async (request) =>
      readNotificationSettings(await q.settingsOf(ctx.db, callerOf(request).userId)),
    );

    route(app, E.saveSettings, async (request) => {
      await q.saveSettings(ctx.db, callerOf(request).userId, request.body);
      return request.body;
    });

    route(app, E.stream, async (request, reply) => {
      const caller = callerOf(request);
      // A client coming back says what it had; a new one starts from now (the list shows the past).
      const header = request.headers['last-event-id'];
      const resumed = lastEventIdSchema.safeParse(typeof header === 'string' ? header.trim() : undefined);
      const lastId = resumed.success ? resumed.data : await q.lastIdOf(ctx.db, caller.userId);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, no-transform',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        // The connection serves this stream only, and ends with it.
        connection: 'close',
      });
      raw.write('retry: 3000\n\n');
      let open = true;
      const write = (text: string) => {
        if (open && !raw.destroyed) raw.write(text);
      };
      const stream: Stream = {
        userId: caller.userId,
        sessionId: caller.sessionId,
        lastId,
        send: (
          event: 'notification' | 'unread',
          id: number | null,
          data: Notification | { unread: number },
        ) => write(`event: ${event}\n${id === null ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`),
        ping: () => write(': ping\n\n'),
        // The stream's connection goes with it: a hijacked exchange would otherwise keep it open, and
        // a server closing waits for it.
        close: () => {
          if (!open) return;
          open = false;
          raw.end(() => raw.destroy());
        },
      } as Stream;
      const detach = hub.attach(stream);
      raw.once('close', () => {
        open = false;
        detach();
      });
      return reply;
    });
  },
};
