/**
 * The correspondence services, by concern: documents and registration (documents.ts), distribution and
 * tasks (distribution.ts), approval circuits (approvals.ts), the boxes (lists.ts) and the calendar
 * (calendar.ts). Shared rules: common.ts. Who sees what: visibility.ts.
 */
export * from './documents';
export * from './distribution';
export * from './lists';
export * from './calendar';
export { scope } from './common';
