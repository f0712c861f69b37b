/**
 * The dashboards' chart (issue 30, src-renderer/components/charts/Chart.tsx), drawn by recharts in
 * happy-dom at a fixed size: in Arabic it is mirrored (the first category stands on the right, the value
 * axis on the right) and in English not; its table view holds the same numbers as the series, in the
 * user's digits; a table cell opens the list behind it, whose address the box screen reads back.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Chart as ChartData } from '../../src-shared/api/dashboards';
import { Chart } from '../../src-renderer/components/charts/Chart';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { setDigitStyle } from '../../src-renderer/lib/format';
import { drillPath } from '../../src-renderer/lib/dashboards-api';
import { boxDrillFromParams } from '../../src-renderer/features/correspondence/documents/BoxListScreen';
import { renderScreen } from './admin-harness';

const CHART: ChartData = {
  key: 'volumesByDepartment',
  kind: 'bar',
  categories: [
    { key: '1', labelAr: 'الشؤون الإدارية', labelEn: 'Administration' },
    { key: '2', labelAr: 'المالية', labelEn: 'Finance' },
    { key: '3', labelAr: 'الموارد البشرية', labelEn: 'Human resources' },
  ],
  series: [
    { key: 'in', values: [120, 45, 1300] },
    { key: 'out', values: [7, 0, 81] },
  ],
  drill: [
    [1, 2, 3].map((d) => ({ to: 'search' as const, filters: { direction: 'in', departmentId: d } })),
    [1, 2, 3].map((d) => ({ to: 'search' as const, filters: { direction: 'out', departmentId: d } })),
  ],
};

const WIDTH = 600;

beforeAll(async () => {
  await initI18n('ar');
});

afterEach(async () => {
  setDigitStyle('latn');
  await act(() => i18n.changeLanguage('ar'));
});

/** The x of each category's tick on the category axis, by its label. */
function categoryTicks(container: HTMLElement): Map<string, number> {
  const ticks = new Map<string, number>();
  container.querySelectorAll('.recharts-xAxis-tick-labels text').forEach((text) => {
    ticks.set(text.textContent ?? '', Number(text.getAttribute('x')));
  });
  return ticks;
}

/** Waits for recharts to lay out its axes (after its first render). */
async function axesDrawn(container: HTMLElement) {
  await waitFor(() => {
    expect(container.querySelectorAll('.recharts-xAxis-tick-labels text').length).toBeGreaterThan(0);
    expect(container.querySelectorAll('.recharts-yAxis-tick-labels text').length).toBeGreaterThan(0);
  });
}

/** The x of the value axis's line. */
function valueAxisX(container: HTMLElement): number {
  const line = container.querySelector('.recharts-yAxis .recharts-cartesian-axis-line');
  return Number(line?.getAttribute('x1') ?? line?.getAttribute('x'));
}

describe('the dashboard chart', () => {
  it('is mirrored in Arabic: the first category on the right, the value axis on the right', async () => {
    const { container } = renderScreen(<Chart chart={CHART} width={WIDTH} />);
    expect(screen.getByText('الحجم حسب الإدارة')).toBeTruthy();
    await axesDrawn(container);
    const ticks = categoryTicks(container);
    expect([...ticks.keys()]).toEqual(
      expect.arrayContaining(['الشؤون الإدارية', 'المالية', 'الموارد البشرية']),
    );
    expect(ticks.get('الشؤون الإدارية')!).toBeGreaterThan(ticks.get('الموارد البشرية')!);
    expect(valueAxisX(container)).toBeGreaterThan(WIDTH / 2);
    // The legend reads from the right, in Arabic words.
    const legend = container.querySelector('.recharts-legend-wrapper') as HTMLElement;
    // In the series' order: incoming, then outgoing (not sorted by name, which would put الصادر first).
    expect([...legend.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['الوارد', 'الصادر']);
    expect(legend.querySelector('ul')?.getAttribute('style') ?? '').toMatch(/text-align: right/);
  });

  it('reads left to right in English: the first category on the left, the value axis on the left', async () => {
    await act(() => i18n.changeLanguage('en'));
    const { container } = renderScreen(<Chart chart={CHART} width={WIDTH} />);
    expect(screen.getByText('Volumes by department')).toBeTruthy();
    await axesDrawn(container);
    const ticks = categoryTicks(container);
    expect(ticks.get('Administration')!).toBeLessThan(ticks.get('Human resources')!);
    expect(valueAxisX(container)).toBeLessThan(WIDTH / 2);
    const legend = container.querySelector('.recharts-legend-wrapper') as HTMLElement;
    expect(legend.textContent).toContain('Incoming');
    expect(legend.querySelector('ul')?.getAttribute('style') ?? '').toMatch(/text-align: left/);
  });

  it('shows the same numbers in its table view, in the user’s digits, and a cell opens its list', async () => {
    setDigitStyle('arab');
    const onDrill = vi.fn();
    const { container } = renderScreen(<Chart chart={CHART} width={WIDTH} onDrill={onDrill} />);
    // The value axis speaks the user's digits too.
    await axesDrawn(container);
    const valueTicks = [...container.querySelectorAll('.recharts-yAxis-tick-labels text')].map(
      (t) => t.textContent,
    );
    expect(valueTicks.some((t) => /[٠-٩]/.test(t ?? ''))).toBe(true);
    expect(valueTicks.some((t) => /[0-9]/.test(t ?? ''))).toBe(false);

    fireEvent.click(screen.getByLabelText('عرض كجدول'));
    const table = screen.getByTestId('chart-table-volumesByDepartment');
    expect(container.querySelector('[data-testid="chart-drawing-volumesByDepartment"]')).toBeNull();
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = rows.map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
    expect(cells).toEqual([
      ['الشؤون الإدارية', '١٢٠', '٧'],
      ['المالية', '٤٥', '٠'],
      ['الموارد البشرية', '١٬٣٠٠', '٨١'],
    ]);
    // Every number of the series is in the table, nothing else.
    fireEvent.click(within(rows[2]!).getByRole('button', { name: /١٬٣٠٠/ }));
    expect(onDrill).toHaveBeenCalledWith({ to: 'search', filters: { direction: 'in', departmentId: 3 } });
  });

  it('says so when a period has nothing to show', () => {
    renderScreen(<Chart chart={{ ...CHART, categories: [], series: [] }} width={WIDTH} />);
    expect(screen.getByTestId('chart-empty-volumesByDepartment').textContent).toBe(
      'لا شيء يُعرض لهذه الفترة.',
    );
  });
});

describe('a figure’s list', () => {
  it('is a box page or the search page with the drill’s filters, which the box screen reads back', () => {
    const path = drillPath({
      to: 'box',
      box: 'incoming',
      filters: { view: 'notCompleted', taskState: 'new' },
    });
    expect(path).toBe('/correspondence/inbox/incoming?view=notCompleted&taskState=new');
    expect(drillPath({ to: 'box', box: 'requiring-changes', filters: {} })).toBe(
      '/correspondence/outbox/awaiting-approval?list=changes',
    );
    expect(drillPath({ to: 'search', filters: { direction: 'in', departmentId: 3 } })).toBe(
      '/search/documents?direction=in&departmentId=3',
    );
    const read = boxDrillFromParams(
      new URLSearchParams(
        'fromDate=2026-11-01&toDate=2026-11-28&view=notCompleted&codificationId=3&dueState=overdue',
      ),
    )!;
    expect(read.view).toBe('notCompleted');
    expect(read.range?.fromDate.format('YYYY-MM-DD')).toBe('2026-11-01');
    expect(read.range?.toDate.format('YYYY-MM-DD')).toBe('2026-11-28');
    expect(read.filters).toEqual({
      codificationId: { operator: 'and', constraints: [{ value: 3, matchMode: 'equals' }] },
      dueState: { operator: 'and', constraints: [{ value: 'overdue', matchMode: 'equals' }] },
    });
    expect(boxDrillFromParams(new URLSearchParams('list=changes'))).toBeNull();
  });
});
