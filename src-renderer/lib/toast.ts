/**
 * The one toast host of the specification (section 8 and 9): top-center, 24rem wide, closable, success
 * and error lasting 3000 ms, severities info, success, warn, error, secondary, contrast. Backed by antd's
 * notification API, bound once by <ToastHost/> inside antd's <App>.
 *
 * A toast says what the screen does not, once, and never over the work:
 * - one toast per user action: `userAction` holds the toasts of the calls an action makes (a draft saved,
 *   its files sent, its registration) and shows one when it ends — an error first, else advice, else the
 *   first success — or no success at all when the screen itself shows the outcome (`outcomeShown`);
 * - the same words are not shown twice at once (a toast still on screen is renewed instead), and one
 *   notice (success, info, warning) stands at a time, a newer one taking its place;
 * - none over an open dialog or drawer: a toast raised while one is open goes where it covers nothing of
 *   it (above, below, or beside a drawer) or, where there is no such place, waits until it closes; a
 *   toast on screen when a dialog opens over it is closed (ToastHost watches for dialogs).
 */
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { NotificationPlacement } from 'antd/es/notification/interface';

export type ToastSeverity = 'info' | 'success' | 'warn' | 'error' | 'secondary' | 'contrast';

export interface ToastOptions {
  severity: ToastSeverity;
  /** The headline; defaults to the severity's localised name ("Success", "Error", …). */
  summary?: string;
  detail?: string;
  /** Milliseconds; 3000 by default. */
  life?: number;
  /**
   * Asked just before the toast shows (after the task that raised it, or at the end of its action): true
   * drops it, the screen having shown the same thing in place meanwhile.
   */
  dropIf?: () => boolean;
}

/** Toast duration of the specification, in milliseconds. */
export const TOAST_LIFE_MS = 3000;

/** The toast's width (24rem) and a generous height, to find a place for it beside an open dialog. */
const TOAST_WIDTH = 384;
const TOAST_HEIGHT = 160;
const MARGIN = 24;

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

// ---------------------------------------------------------------- one toast per user action

/** The toasts of the user action under way (see userAction), or null. */
let held: ToastOptions[] | null = null;

/**
 * The one toast an action ends with: an error, else advice, else its first success — none of what the
 * screen shows itself (`shown`: its outcome, its error).
 */
export function chooseToast(
  toasts: readonly ToastOptions[],
  { outcomeShown = false, errorShown = false }: ActionShows = {},
): ToastOptions | null {
  toasts = toasts.filter((t) => !t.dropIf?.());
  return (
    (errorShown ? undefined : toasts.find((t) => t.severity === 'error')) ??
    toasts.find((t) => t.severity === 'warn' || t.severity === 'info') ??
    (outcomeShown ? undefined : toasts.find((t) => t.severity === 'success')) ??
    null
  );
}

/** What a screen shows of an action itself, so no toast repeats it. */
export interface ActionShows {
  /** What became of it: a "registered" heading, the next dialog, a page saying "sent for approval". */
  outcomeShown?: boolean;
  /** Why it failed, in place (an alert in the dialog, the fields marked). */
  errorShown?: boolean;
}

/**
 * Runs a user action (a click that makes several calls) and ends it with one toast: the toasts its calls
 * raise are held meanwhile and chooseToast picks, leaving out what the screen shows itself. Actions
 * inside an action are part of it.
 */
export async function userAction<T>(run: () => Promise<T>, shows: ActionShows = {}): Promise<T> {
  if (held) return run();
  const mine: ToastOptions[] = [];
  held = mine;
  try {
    return await run();
  } finally {
    if (held === mine) held = null;
    const chosen = chooseToast(mine, shows);
    if (chosen) show(chosen);
  }
}

// ---------------------------------------------------------------- showing, away from dialogs

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The boxes of the dialogs and drawers open now. */
export function openDialogBoxes(): Box[] {
  if (typeof document === 'undefined') return [];
  const boxes: Box[] = [];
  for (const el of document.querySelectorAll<HTMLElement>(
    '.ant-modal-content, .ant-drawer-content-wrapper',
  )) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    // A dialog on its way out (antd's leave animation) no longer holds the user's attention.
    if (el.closest('.ant-zoom-leave, .ant-fade-leave, .ant-modal-wrap[style*="display: none"]')) continue;
    boxes.push({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  }
  return boxes;
}

/** Where a toast would stand for each placement, in the window (antd places them physically). */
function placementBox(placement: NotificationPlacement): Box {
  const w = window.innerWidth;
  const h = window.innerHeight;
  const width = Math.min(TOAST_WIDTH, w - 32);
  const x =
    placement === 'top' || placement === 'bottom'
      ? (w - width) / 2
      : placement === 'topLeft' || placement === 'bottomLeft'
        ? MARGIN
        : w - MARGIN - width;
  const y = placement.startsWith('top') ? MARGIN : h - MARGIN - TOAST_HEIGHT;
  return { left: x, right: x + width, top: y, bottom: y + TOAST_HEIGHT };
}

/** The first placement (top-center first, the specification's) where a toast covers no open dialog. */
export function freePlacement(dialogs: readonly Box[]): NotificationPlacement | null {
  const candidates: NotificationPlacement[] = [
    'top',
    'bottom',
    'topLeft',
    'topRight',
    'bottomLeft',
    'bottomRight',
  ];
  return candidates.find((p) => !dialogs.some((d) => overlaps(placementBox(p), d))) ?? null;
}

/** Toasts waiting for the dialogs to close (no free place beside them). */
let waiting: ToastOptions[] = [];
/**
 * The toasts on screen by what they say (`kindOf`), each with its antd key, its words and the dialogs open
 * when it was shown. Saying a toast again while it stands renews it under its key; once it has closed, a
 * new one gets a new key: antd keeps a closed toast for its leave animation, and one opened again under
 * that key during it would stand for good (its timer has run and does not start again).
 */
const onScreen = new Map<string, { key: string; options: ToastOptions; dialogs: number }>();
let shownCount = 0;

const kindOf = (options: ToastOptions) =>
  options.severity === 'error'
    ? `error:${options.summary ?? ''}:${options.detail ?? ''}`
    : // One notice at a time: a newer one takes its place.
      'notice';

function show(options: ToastOptions): void {
  if (!api) return;
  const dialogs = openDialogBoxes();
  const placement = dialogs.length === 0 ? 'top' : freePlacement(dialogs);
  if (!placement) {
    waiting = [
      ...waiting.filter((w) => kindOf(w) !== kindOf(options) || w.detail !== options.detail),
      options,
    ];
    return;
  }
  const { severity, summary, detail, life = TOAST_LIFE_MS } = options;
  const type =
    severity === 'warn' ? 'warning' : severity === 'secondary' || severity === 'contrast' ? 'open' : severity;
  const kind = kindOf(options);
  const key = onScreen.get(kind)?.key ?? `${kind}#${(shownCount += 1)}`;
  onScreen.set(kind, { key, options, dialogs: dialogs.length });
  api[type]({
    key,
    title: summary ?? summaries[severity] ?? '',
    description: detail,
    placement,
    duration: life / 1000,
    closable: true,
    className: `sijill-toast sijill-toast-${severity}`,
    onClose: () => {
      if (onScreen.get(kind)?.key === key) onScreen.delete(kind);
    },
    props: { 'data-testid': `toast-${severity}`, 'data-toast-key': key, role: 'alert' } as Record<
      string,
      string
    >,
  });
}

/** Shows a toast (held until the end of a user action under way, see userAction). */
export function toast(options: ToastOptions): void {
  if (held) held.push(options);
  else if (options.dropIf) setTimeout(() => options.dropIf!() || show(options), 0);
  else show(options);
}

/**
 * Keeps toasts off the dialogs (ToastHost calls it whenever the page's dialogs may have changed): a toast
 * covering an open dialog is closed — and shown again once the dialogs close if it was raised while one
 * was open, so nobody missed it —, and the toasts that waited are shown when there is room.
 */
export function keepToastsOffDialogs(): void {
  if (!api || typeof document === 'undefined') return;
  const dialogs = openDialogBoxes();
  if (dialogs.length > 0) {
    for (const el of document.querySelectorAll<HTMLElement>('[data-toast-key]')) {
      const key = el.getAttribute('data-toast-key')!;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || !dialogs.some((d) => overlaps(r, d))) continue;
      const kind = [...onScreen].find(([, entry]) => entry.key === key)?.[0];
      const entry = kind === undefined ? undefined : onScreen.get(kind);
      api.destroy(key);
      if (kind !== undefined) onScreen.delete(kind);
      if (entry && entry.dialogs > 0) waiting.push(entry.options);
    }
    return;
  }
  if (waiting.length > 0) {
    const queue = waiting;
    waiting = [];
    for (const options of queue) show(options);
  }
}
