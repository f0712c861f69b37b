/**
 * The words of a notification, in one language, from its kind and the details frozen when it was made
 * (src-shared/api/notifications.ts; the server's producers are in
 * src-server/modules/correspondence/notices.ts). Shared by the bell and the notifications page (i18next's `t`) and by
 * the desktop's system notices in main (the same locale files, read there without i18next), so both say
 * the same thing. Texts live in locales/<lang>/notifications.json.
 */
import type { Notification } from './api/notifications';
import type { Locale } from './locale';

/** A lookup of `notifications.json` by key with `{{name}}` values (i18next's `t` fits). */
export type NotificationTranslate = (key: string, values?: Record<string, string | number>) => string;

export interface NotificationWords {
  /** What happened, by kind ("Letter distributed to you"). */
  title: string;
  /** The document: its number and subject, or that it is no longer there. */
  document: string;
  /** The details worth a line: the due date, the late days, who did it, the department, on behalf of. */
  lines: string[];
}

/** A name of a person or department as the details carry it. */
function nameOf(value: unknown, locale: Locale): string | null {
  if (!value || typeof value !== 'object') return null;
  const { nameAr, nameEn } = value as { nameAr?: unknown; nameEn?: unknown };
  const preferred = locale === 'ar' ? nameAr : nameEn;
  const other = locale === 'ar' ? nameEn : nameAr;
  if (typeof preferred === 'string' && preferred) return preferred;
  return typeof other === 'string' && other ? other : null;
}

const DUE_SUBJECTS = new Set(['reply', 'task', 'approval']);

/** The words of `notification` in `locale`; `formatDate` writes a YYYY-MM-DD date as the user reads dates. */
export function notificationWords(
  notification: Notification,
  locale: Locale,
  t: NotificationTranslate,
  formatDate: (day: string) => string = (day) => day,
): NotificationWords {
  const { details, document } = notification;
  // A document sent back to its author is either to change or rejected outright.
  const title =
    notification.kind === 'changesRequested' && details.decision === 'rejected'
      ? t('kinds.changesRequested.titleRejected')
      : notification.kind === 'approved' && details.final === false && typeof details.step === 'number'
        ? t('kinds.approved.titleStep', { step: details.step })
        : t(`kinds.${notification.kind}.title`);
  const subjectText = document?.subject ?? '';
  const documentText = document
    ? document.docNumber
      ? t('words.document', { number: document.docNumber, subject: subjectText })
      : t('words.documentUnnumbered', { subject: subjectText })
    : t('words.documentGone');

  const lines: string[] = [];
  const dueOn =
    typeof details.dueOn === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(details.dueOn) ? details.dueOn : null;
  if (dueOn) {
    const what =
      typeof details.subject === 'string' && DUE_SUBJECTS.has(details.subject) ? details.subject : null;
    lines.push(
      what
        ? t('words.dueWhat', { what: t(`words.subjects.${what}`), date: formatDate(dueOn) })
        : t('words.due', { date: formatDate(dueOn) }),
    );
  }
  if (typeof details.days === 'number' && Number.isFinite(details.days) && details.days > 0) {
    lines.push(t('words.daysLate', { count: details.days }));
  }
  const dispatchDate =
    typeof details.dispatchDate === 'string' && /^\d{4}-\d{2}-\d{2}/.test(details.dispatchDate)
      ? details.dispatchDate.slice(0, 10)
      : null;
  if (dispatchDate) lines.push(t('words.dispatchedOn', { date: formatDate(dispatchDate) }));
  const actor = nameOf(details.actor, locale);
  // A delegate's act names whom it was for.
  const actorFor = nameOf(details.behalfOf, locale);
  if (actor && actorFor) lines.push(t('words.actorFor', { name: actor, other: actorFor }));
  else if (actor) lines.push(t('words.actor', { name: actor }));
  // An escalation names whose delay it is.
  const person = nameOf(details.person, locale);
  if (person) lines.push(t('words.person', { name: person }));
  const department = nameOf(details.department, locale);
  if (department) lines.push(t('words.department', { name: department }));
  if (typeof details.comment === 'string' && details.comment.trim()) {
    lines.push(t('words.comment', { text: details.comment.trim() }));
  }
  // The integrity check: what is wrong with the stored file.
  if (
    notification.kind === 'integrityFailed' &&
    (details.problem === 'changed' || details.problem === 'missing')
  )
    lines.push(t(`words.integrity.${details.problem}`));
  if (notification.onBehalfOf) {
    const name = nameOf(notification.onBehalfOf, locale) ?? '';
    lines.push(t('words.onBehalfOf', { name }));
  }
  return { title, document: documentText, lines };
}
