/**
 * Watches every toast the page shows, across navigations, as a person would notice them: each new toast
 * (or a toast whose words change in place) counts once under the user action under way, and a toast drawn
 * over an open dialog or drawer is noted with what it covers. The test names each action before doing it
 * (`begin`); every toast until the next action began is that action's.
 */
import type { Page } from '@playwright/test';

/**
 * The toast that says `words` (of a severity, when given). A toast never stands alone in the page for
 * sure: the one before it may still be fading out (antd keeps it for its leave animation) while it comes
 * in, so a test finds a toast by what it says, never as "the" toast.
 */
export function toastSaying(page: Page, words: string | RegExp, severity?: 'success' | 'error') {
  return page.locator(severity ? `.sijill-toast-${severity}` : '.sijill-toast').filter({ hasText: words });
}

export interface SeenToast {
  action: string;
  text: string;
}

export class ToastWatch {
  readonly shown: SeenToast[] = [];
  readonly overDialogs: string[] = [];
  private action = 'opening';

  private constructor(readonly page: Page) {}

  /** Starts watching (before the page is first opened). */
  static async on(page: Page): Promise<ToastWatch> {
    const watch = new ToastWatch(page);
    await page.exposeFunction('__sijillToastSeen', (text: string) =>
      watch.shown.push({ action: watch.action, text }),
    );
    await page.exposeFunction('__sijillToastOverDialog', (text: string, dialog: string) =>
      watch.overDialogs.push(`${watch.action}: toast "${text}" over the dialog "${dialog}"`),
    );
    await page.addInitScript(() => {
      const w = window as unknown as {
        __sijillToastSeen: (text: string) => void;
        __sijillToastOverDialog: (text: string, dialog: string) => void;
      };
      const words = new WeakMap<Element, string>();
      const reported = new WeakSet<Element>();
      const shown = (el: Element) => {
        const s = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return s.visibility !== 'hidden' && Number(s.opacity) > 0.2 && r.width > 0 && r.height > 0;
      };
      const tick = () => {
        const dialogs = [
          ...document.querySelectorAll('.ant-modal-content, .ant-drawer-content-wrapper'),
        ].filter((d) => shown(d) && !d.closest('.ant-zoom-leave, .ant-fade-leave'));
        for (const el of document.querySelectorAll('.sijill-toast')) {
          const text = (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
          if (words.get(el) !== text) {
            words.set(el, text);
            w.__sijillToastSeen(text);
          }
          const notice = el.closest('.ant-notification-notice-wrapper') ?? el;
          if (!shown(notice) || reported.has(el)) continue;
          const t = notice.getBoundingClientRect();
          for (const d of dialogs) {
            const r = d.getBoundingClientRect();
            if (t.left < r.right && r.left < t.right && t.top < r.bottom && r.top < t.bottom) {
              reported.add(el);
              const title = d.querySelector('.ant-modal-title, .ant-drawer-title')?.textContent ?? '';
              w.__sijillToastOverDialog(text, title);
            }
          }
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    return watch;
  }

  /** The user action that starts now (its toasts are counted under its name). */
  begin(action: string): void {
    this.action = action;
  }

  /** The toasts shown during an action. */
  of(action: string): string[] {
    return this.shown.filter((t) => t.action === action).map((t) => t.text);
  }
}
