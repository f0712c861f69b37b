/**
 * The station card. Its folder dialog: on the desktop (a preload bridge) each watched folder has a button
 * that opens the system's folder dialog and a button adds a chosen folder; the chosen path is what the
 * settings then save. In a browser (the web shell, no preload) neither button is offered: a browser
 * cannot name a local folder, so the path is typed. Its uploads in flight: a batch carries up to 32
 * files, so the file being sent is listed first and five at most are named, the rest counted.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { StationConfig, StationStatusView } from '../../src-shared/ipc/contract';
import { initI18n } from '../../src-renderer/lib/i18n';
import { LocaleProvider } from '../../src-renderer/app/locale';
import { StationCard } from '../../src-renderer/features/user/StationCard';
import { renderScreen } from './admin-harness';

const holder = vi.hoisted(() => ({ bridge: null as unknown }));
vi.mock('../../src-renderer/lib/bridge', () => ({ getBridge: () => holder.bridge }));

const status = (config: StationConfig): StationStatusView => ({
  config,
  running: false,
  paused: false,
  ready: true,
  folders: [],
  counts: {},
  active: [],
  problems: [],
  recent: [],
});

/** A desktop bridge whose folder dialog answers the given paths in turn. */
function desktopBridge(chosen: (string | null)[]) {
  let config: StationConfig = { enabled: false, folders: ['/srv/old'], polling: false };
  const bridge = {
    stationStatus: vi.fn(async () => ({ ok: true, data: status(config) })),
    stationConfigure: vi.fn(async (next: StationConfig) => {
      config = next;
      return { ok: true, data: status(config) };
    }),
    stationChooseFolder: vi.fn(async () => ({ ok: true, data: { path: chosen.shift() ?? null } })),
  };
  holder.bridge = bridge;
  // The preload's bridge is what tells the card it runs on the desktop.
  (window as unknown as { sijill?: unknown }).sijill = bridge;
  return bridge;
}

function show() {
  return renderScreen(
    <MemoryRouter>
      <LocaleProvider initial="en">
        <StationCard />
      </LocaleProvider>
    </MemoryRouter>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  delete (window as unknown as { sijill?: unknown }).sijill;
});

describe('the station card’s folder dialog', () => {
  it('on the desktop, replaces a folder and adds one from the system’s dialog; a cancel changes nothing', async () => {
    const bridge = desktopBridge(['/srv/scans/قسم الأرشيف', null, '/mnt/share/scanner']);
    show();
    const first = (await screen.findByTestId('station-folder-0')) as HTMLInputElement;
    expect(first.value).toBe('/srv/old');
    fireEvent.click(screen.getByTestId('station-folder-browse-0'));
    await waitFor(() => expect(first.value).toBe('/srv/scans/قسم الأرشيف'));
    fireEvent.click(screen.getByTestId('station-folder-choose'));
    await waitFor(() => expect(bridge.stationChooseFolder).toHaveBeenCalledTimes(2));
    expect(screen.queryByTestId('station-folder-1')).toBeNull();
    fireEvent.click(screen.getByTestId('station-folder-choose'));
    const added = (await screen.findByTestId('station-folder-1')) as HTMLInputElement;
    expect(added.value).toBe('/mnt/share/scanner');
    fireEvent.click(screen.getByTestId('station-save'));
    await waitFor(() =>
      expect(bridge.stationConfigure).toHaveBeenCalledWith(
        expect.objectContaining({ folders: ['/srv/scans/قسم الأرشيف', '/mnt/share/scanner'] }),
      ),
    );
  });

  it('in a browser, offers no folder dialog', async () => {
    desktopBridge([]);
    // The web shell's bridge (a socket) is not the preload's `window.sijill`.
    delete (window as unknown as { sijill?: unknown }).sijill;
    show();
    await screen.findByTestId('station-folder-0');
    expect(screen.queryByTestId('station-folder-browse-0')).toBeNull();
    expect(screen.queryByTestId('station-folder-choose')).toBeNull();
  });
});

describe('the station card’s uploads in flight', () => {
  it('a batch in flight: the file being sent first, five named, the rest counted', async () => {
    const bridge = desktopBridge([]);
    const active = Array.from({ length: 32 }, (_, i) => ({
      id: i + 1,
      name: `scan ${i + 1}.pdf`,
      size: 1000,
      // Files 1–3 sent whole (awaiting the answer), 4 being sent, the rest waiting their turn.
      sent: i < 3 ? 1000 : i === 3 ? 400 : 0,
    }));
    bridge.stationStatus.mockImplementation(async () => ({
      ok: true,
      data: { ...status({ enabled: true, folders: ['/srv/scans'], polling: false }), running: true, active },
    }));
    show();
    const list = await screen.findByTestId('station-active');
    const names = [...list.querySelectorAll('bdi')].map((b) => b.textContent);
    expect(names).toEqual(['scan 4.pdf', 'scan 1.pdf', 'scan 2.pdf', 'scan 3.pdf', 'scan 5.pdf']);
    expect(screen.getByTestId('station-active-more').textContent).toBe('and 27 more in the same upload');
  });
});
