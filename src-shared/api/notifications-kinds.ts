/**
 * The vocabulary of issue 28 shared by the schema, the server and the screens: what a notification is
 * about, what a due date belongs to, what a delegation covers, how a holiday is entered.
 */

/**
 * What happened: a distribution to me or my department, a task given to me, my turn in a circuit, changes
 * requested on my document, my document approved, something of mine about to fall due or overdue, an overdue item of my
 * department escalated to me (its manager), a document I wrote dispatched, a delegation given to me, a
 * stored file found changed or missing by the integrity check (administrators).
 */
export const NOTIFICATION_KINDS = [
  'distributed',
  'taskAssigned',
  'approvalTurn',
  'changesRequested',
  'approved',
  'dueSoon',
  'overdue',
  'escalated',
  'dispatched',
  'delegated',
  'integrityFailed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What carries a due date: an incoming letter's reply, a task, an approval step. */
export const DUE_SUBJECTS = ['reply', 'task', 'approval'] as const;
export type DueSubject = (typeof DUE_SUBJECTS)[number];

/** What a delegation hands over for its dates. */
export const DELEGATION_SCOPES = ['approvals', 'tasks', 'both'] as const;
export type DelegationScope = (typeof DELEGATION_SCOPES)[number];

/** The calendar a holiday was entered in (its dates are always kept in Gregorian as well). */
export const HOLIDAY_CALENDARS = ['gregorian', 'hijri'] as const;
export type HolidayCalendar = (typeof HOLIDAY_CALENDARS)[number];
