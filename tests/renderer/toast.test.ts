/**
 * The toast rules of lib/toast.ts on a recording notification API: one toast per user action (an error
 * first, else advice, else the first success, none of what the screen shows), a failure the screen shows
 * in place is not toasted, the same words are not shown twice at once, and no toast goes over an open
 * dialog — placed beside it, or held until it closes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationInstance } from 'antd/es/notification/interface';
import {
  bindToasts,
  chooseToast,
  freePlacement,
  keepToastsOffDialogs,
  toast,
  userAction,
  type ToastOptions,
} from '../../src-renderer/lib/toast';

interface Shown {
  key: string;
  kind: string;
  description: unknown;
  placement: unknown;
  /** What antd calls when the toast's time is up or it is closed. */
  onClose?: () => void;
}

let shown: Shown[];
const destroyed: string[] = [];

function recordingApi(): NotificationInstance {
  const record =
    (kind: string) =>
    (args: { key?: string; description?: unknown; placement?: unknown; onClose?: () => void }) =>
      shown.push({
        key: String(args.key),
        kind,
        description: args.description,
        placement: args.placement,
        onClose: args.onClose,
      });
  return {
    success: record('success'),
    error: record('error'),
    info: record('info'),
    warning: record('warning'),
    open: record('open'),
    destroy: (key?: unknown) => destroyed.push(String(key)),
  } as unknown as NotificationInstance;
}

/** Puts an open dialog of the given box on the page (what antd renders for a Modal). */
function openDialog(box: { top: number; bottom: number; left: number; right: number }) {
  const el = document.createElement('div');
  el.className = 'ant-modal-content';
  el.getBoundingClientRect = () =>
    ({
      ...box,
      width: box.right - box.left,
      height: box.bottom - box.top,
      x: box.left,
      y: box.top,
    }) as DOMRect;
  document.body.appendChild(el);
  return el;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  shown = [];
  destroyed.length = 0;
  window.innerWidth = 1280;
  window.innerHeight = 800;
  bindToasts(recordingApi(), { success: 'Success', error: 'Error' });
});
afterEach(() => {
  for (const s of shown) s.onClose?.();
  bindToasts(null);
  document.body.innerHTML = '';
  keepToastsOffDialogs();
});

describe('toasts', () => {
  it('an action shows one toast: an error first, else advice, else its first success', () => {
    const ok = (detail: string): ToastOptions => ({ severity: 'success', detail });
    expect(chooseToast([ok('Draft saved'), ok('File added')])?.detail).toBe('Draft saved');
    expect(chooseToast([ok('Draft saved'), { severity: 'info', detail: 'Also in IN-1' }])?.detail).toBe(
      'Also in IN-1',
    );
    expect(chooseToast([ok('Draft saved'), { severity: 'error', detail: 'Too large' }])?.detail).toBe(
      'Too large',
    );
    expect(chooseToast([ok('Registered')], { outcomeShown: true })).toBeNull();
    expect(chooseToast([{ severity: 'error', detail: 'Refused' }], { errorShown: true })).toBeNull();
    expect(chooseToast([{ severity: 'error', detail: 'x', dropIf: () => true }])).toBeNull();
  });

  it('holds the toasts of the calls an action makes and shows one at its end', async () => {
    await userAction(async () => {
      toast({ severity: 'success', detail: 'Draft saved' });
      await tick();
      toast({ severity: 'success', detail: 'Attachment added' });
      expect(shown).toEqual([]);
    });
    expect(shown.map((s) => s.description)).toEqual(['Draft saved']);
    shown = [];
    await userAction(async () => toast({ severity: 'success', detail: 'Registered' }), {
      outcomeShown: true,
    });
    expect(shown).toEqual([]);
  });

  it('does not toast a failure the screen shows in place', async () => {
    let inPlace = false;
    toast({ severity: 'error', detail: 'Name taken', dropIf: () => inPlace });
    inPlace = true; // the form marked the field meanwhile
    await tick();
    expect(shown).toEqual([]);
    toast({ severity: 'error', detail: 'Server away', dropIf: () => false });
    await tick();
    expect(shown.map((s) => s.description)).toEqual(['Server away']);
  });

  it('renews the same words instead of stacking them, and keeps one notice at a time', () => {
    toast({ severity: 'error', detail: 'Server away' });
    toast({ severity: 'error', detail: 'Server away' });
    toast({ severity: 'success', detail: 'Saved' });
    toast({ severity: 'info', detail: 'Kept on this computer' });
    expect(new Set(shown.map((s) => s.key)).size).toBe(2);
  });

  it('gives a toast said again after the last one closed a key of its own', () => {
    // antd keeps a closed toast for its leave animation: one opened again under its key then would
    // stand for good. Renewing under the same key is for a toast still standing only.
    toast({ severity: 'success', detail: 'Department added' });
    toast({ severity: 'success', detail: 'Department added' });
    expect(shown[1]!.key).toBe(shown[0]!.key);
    shown[0]!.onClose!();
    toast({ severity: 'success', detail: 'Department added' });
    expect(shown[2]!.key).not.toBe(shown[0]!.key);
    // The first toast's late close does not forget the one standing now.
    shown[1]!.onClose!();
    toast({ severity: 'info', detail: 'Kept' });
    expect(shown[3]!.key).toBe(shown[2]!.key);
    for (const kind of ['error', 'error']) toast({ severity: kind as 'error', detail: 'Away' });
    expect(shown[5]!.key).toBe(shown[4]!.key);
    shown[4]!.onClose!();
    toast({ severity: 'error', detail: 'Away' });
    expect(shown[6]!.key).not.toBe(shown[4]!.key);
  });

  it('places a toast beside an open dialog, or holds it until the dialog closes', () => {
    // A small dialog at the top: below it there is room.
    expect(freePlacement([{ top: 100, bottom: 400, left: 400, right: 880 }])).toBe('bottom');
    // A drawer along the right: the left is free.
    expect(freePlacement([{ top: 0, bottom: 800, left: 544, right: 1280 }])).toBe('topLeft');
    // A dialog filling the window: nowhere.
    expect(freePlacement([{ top: 0, bottom: 800, left: 0, right: 1280 }])).toBeNull();

    const dialog = openDialog({ top: 0, bottom: 800, left: 0, right: 1280 });
    toast({ severity: 'error', detail: 'Refused' });
    expect(shown).toEqual([]);
    dialog.remove();
    keepToastsOffDialogs();
    expect(shown.map((s) => [s.description, s.placement])).toEqual([['Refused', 'top']]);
  });

  it('closes a toast a dialog opens over', () => {
    toast({ severity: 'success', detail: 'Saved' });
    const notice = document.createElement('div');
    notice.setAttribute('data-toast-key', shown[0]!.key);
    notice.getBoundingClientRect = () =>
      ({ top: 24, bottom: 120, left: 448, right: 832, width: 384, height: 96 }) as DOMRect;
    document.body.appendChild(notice);
    openDialog({ top: 100, bottom: 500, left: 400, right: 880 });
    keepToastsOffDialogs();
    expect(destroyed).toEqual([shown[0]!.key]);
  });
});
