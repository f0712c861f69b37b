/**
 * The daily e-mail digest (issue 28): at the hour a user chose (the organisation's time zone), what they
 * have not read and not been mailed yet, of the kinds they want by e-mail, in one bilingual message
 * (Arabic first) through the organisation's SMTP server. Document numbers only, never subjects: an e-mail
 * leaves the building. A job every hour; a notification is mailed once (`emailed_at`).
 */
import { sql } from 'drizzle-orm';
import { dayIn, hourIn } from '../../clock';
import type { ServerContext } from '../../context';
import { rowsOf } from '../../db/rows';
import { translate } from '../../i18n';
import type { JobContext } from '../../jobs/queue';
import {
  channelsOf,
  readNotificationSettings,
  type Notification,
} from '../../../src-shared/api/notifications';
import type { Locale } from '../../../src-shared/locale';
import { escapeHtml, sendPlainMail, type SmtpSettings } from '../final/mail';
import { readSettings, smtpOf } from '../final/settings';
import { scopeOfUser } from '../correspondence/visibility';
import * as q from './queries';

export const DIGEST_JOB = 'notifications.digest';
/** At most this many items are listed in one digest (the rest: "and N more"). */
const DIGEST_MAX_ITEMS = 50;

/** One line of the digest in a language: what happened, the document's number, the due date. */
function lineOf(locale: Locale, n: Notification): string {
  const due = typeof n.details.dueOn === 'string' ? n.details.dueOn : null;
  const what = translate(locale, `digest.kinds.${n.kind}`);
  const number = n.document?.docNumber ?? translate(locale, 'digest.noNumber');
  return due
    ? `${what} — ${number} (${translate(locale, 'digest.due', { date: due })})`
    : `${what} — ${number}`;
}

/** The message for one user: both languages, Arabic first. */
export function digestMessage(
  items: Notification[],
  more: number,
): { subject: string; text: string; html: string } {
  const part = (locale: Locale) => {
    const lines = items.map((n) => lineOf(locale, n));
    if (more > 0) lines.push(translate(locale, 'digest.more', { count: more }));
    return { intro: translate(locale, 'digest.intro', { count: items.length + more }), lines };
  };
  const ar = part('ar');
  const en = part('en');
  const subject = `${translate('ar', 'digest.subject')} | ${translate('en', 'digest.subject')}`;
  const text = [
    ar.intro,
    ...ar.lines.map((l) => `- ${l}`),
    '',
    en.intro,
    ...en.lines.map((l) => `- ${l}`),
  ].join('\n');
  const list = (lines: string[]) => `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`;
  const html =
    `<div dir="rtl" lang="ar"><p>${escapeHtml(ar.intro)}</p>${list(ar.lines)}</div><hr>` +
    `<div dir="ltr" lang="en"><p>${escapeHtml(en.intro)}</p>${list(en.lines)}</div>`;
  return { subject, text, html };
}

/** Sends the digests due at `now`'s hour; answers how many messages went. */
export async function sendDigests(
  ctx: Pick<ServerContext, 'db' | 'config' | 'clock'>,
  now: Date = ctx.clock.now(),
): Promise<number> {
  const hour = hourIn(ctx.config.ORG_TIME_ZONE, now);
  const users = await rowsOf<{ id: number; email: string; settings: unknown }>(
    ctx.db,
    sql`select id, email, notification_settings as settings from users
         where active and (notification_settings ->> 'digest')::boolean is true
           and coalesce((notification_settings ->> 'digestHour')::int, 7) = ${hour}
           and exists (select 1 from notifications n where n.user_id = users.id
                        and n.read_at is null and n.emailed_at is null)`,
  );
  if (!users.length) return 0;
  let smtp: SmtpSettings | null = null;
  try {
    smtp = await smtpOf(ctx, await readSettings(ctx.db));
  } catch {
    smtp = null;
  }
  if (!smtp) return 0;
  let sent = 0;
  for (const user of users) {
    const settings = readNotificationSettings(user.settings);
    const scope = await scopeOfUser(ctx.db, user.id, dayIn(ctx.config.ORG_TIME_ZONE, now));
    const unread = await q.listOf(ctx.db, scope, { limit: 500, unreadOnly: true });
    const pending = await rowsOf<{ id: number }>(
      ctx.db,
      sql`select id from notifications where user_id = ${user.id} and read_at is null and emailed_at is null`,
    );
    const pendingIds = new Set(pending.map((p) => p.id));
    const wanted = unread.items.filter((n) => pendingIds.has(n.id) && channelsOf(settings, n.kind).email);
    if (wanted.length) {
      const message = digestMessage(
        wanted.slice(0, DIGEST_MAX_ITEMS),
        Math.max(0, wanted.length - DIGEST_MAX_ITEMS),
      );
      const outcome = await sendPlainMail(smtp, { to: user.email, ...message });
      if (!outcome.ok) continue; // tried again at this hour tomorrow, with what is still unread then
      sent += 1;
    }
    // What was left out (kinds not wanted by e-mail) is settled too: the digest never lists it later.
    await ctx.db.execute(sql`update notifications set emailed_at = now()
      where user_id = ${user.id} and emailed_at is null and id in (${sql.join(
        [...pendingIds].map((id) => sql`${id}`),
        sql`, `,
      )})`);
  }
  return sent;
}

/** The job: the digests of this hour, then the next run at the top of the next hour. */
export async function runDigest(ctx: ServerContext, _job: JobContext): Promise<void> {
  try {
    await sendDigests(ctx);
  } finally {
    await queueDigest(ctx);
  }
}

export async function queueDigest(ctx: ServerContext): Promise<void> {
  const next = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000 + 60_000);
  await ctx.jobs.enqueue(ctx.db, DIGEST_JOB, {}, { key: 'next', runAt: next, maxAttempts: 3 });
}
