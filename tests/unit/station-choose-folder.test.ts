/**
 * The watched folder's dialog (`station:choose-folder`): the desktop answers the folder the operating
 * system's dialog chose, or null when cancelled; a host without a dialog (the web shell) answers null
 * rather than failing, and the answer passes the contract's output check.
 */
import { describe, expect, it } from 'vitest';
import { createDispatch } from '../../src-main/ipc/dispatch';
import { createHandlers, type MainServices } from '../../src-main/ipc/handlers';

function dispatchWith(chooseFolder?: () => Promise<string | null>) {
  // Only the station's dialog is called: the other services are never reached (the session service
  // reads its two keys when it is made).
  const store = { get: () => undefined, delete: () => undefined };
  const services = { store, ...(chooseFolder ? { chooseFolder } : {}) } as unknown as MainServices;
  return createDispatch(createHandlers(services));
}

describe('station:choose-folder', () => {
  it('answers the folder the dialog chose, or null when it was cancelled', async () => {
    expect(
      await dispatchWith(async () => '/srv/scans/قسم الأرشيف')('station:choose-folder', undefined, true),
    ).toEqual({
      ok: true,
      data: { path: '/srv/scans/قسم الأرشيف' },
    });
    expect(await dispatchWith(async () => null)('station:choose-folder', undefined, true)).toEqual({
      ok: true,
      data: { path: null },
    });
  });

  it('answers null where the host has no folder dialog (the web shell)', async () => {
    expect(await dispatchWith()('station:choose-folder', undefined, true)).toEqual({
      ok: true,
      data: { path: null },
    });
  });
});
