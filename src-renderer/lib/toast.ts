/**
 * The one toast host of the specification (section 8 and 9): top-center, 24rem wide, closable, success
 * and error lasting 3000 ms, severities info, success, warn, error, secondary, contrast. Backed by antd's
 * notification API, bound once by <ToastHost/> inside antd's <App>.
 */
import type { NotificationInstance } from 'antd/es/notification/interface';

export type ToastSeverity = 'info' | 'success' | 'warn' | 'error' | 'secondary' | 'contrast';

export interface ToastOptions {
  severity: ToastSeverity;
  /** The headline; defaults to the severity's localised name ("Success", "Error", …). */
  summary?: string;
  detail?: string;
  /** Milliseconds; 3000 by default. */
  life?: number;
}

/** Toast duration of the specification, in milliseconds. */
export const TOAST_LIFE_MS = 3000;

let api: NotificationInstance | null = null;
let summaries: Partial<Record<ToastSeverity, string>> = {};

/** Binds the notification instance and the localised severity names (called by ToastHost). */
export function bindToasts(
  instance: NotificationInstance | null,
  names: Partial<Record<ToastSeverity, string>> = {},
) {
  api = instance;
  summaries = names;
}

/** Shows a toast. */
export function toast({ severity, summary, detail, life = TOAST_LIFE_MS }: ToastOptions): void {
  if (!api) return;
  const kind =
    severity === 'warn' ? 'warning' : severity === 'secondary' || severity === 'contrast' ? 'open' : severity;
  api[kind]({
    title: summary ?? summaries[severity] ?? '',
    description: detail,
    placement: 'top',
    duration: life / 1000,
    closable: true,
    className: `sijill-toast sijill-toast-${severity}`,
    props: { 'data-testid': `toast-${severity}`, role: 'alert' } as Record<string, string>,
  });
}
