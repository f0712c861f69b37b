/**
 * The dashboards and reports through their screens (issue 30), on the demo organisation, in both
 * languages at 1280 and 1920 px: the manager opens their dashboard, reads the same figures the API
 * counts for them, sees the charts mirrored in Arabic (the value axis on the right) and not in English,
 * and a chart's point opens the list of documents behind it with its filters. The manager then opens the
 * reports, sees a report's rows and exports it to Excel, followed to its download. Nothing scrolls
 * sideways. Screenshots in test-results/screens/dashboards-*.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEMO_PASSWORD, expect, test } from './fixtures';
import { Api } from './support/api';
import { openScreen, settle, signInAs } from './support/demo';
import { expectFits } from './support/fits';

test.use({ demo: true });

const SCREENS = resolve(import.meta.dirname, '../../test-results/screens');
mkdirSync(SCREENS, { recursive: true });

interface Drill {
  to: 'box' | 'search';
  box?: string;
  filters: Record<string, string | number>;
}
interface Dashboard {
  figures: { key: string; value: number; unit: 'count' | 'days'; drill: Drill }[];
  charts: {
    key: string;
    categories: { key: string }[];
    series: { key: string; values: number[] }[];
    drill?: Drill[][];
  }[];
}

/** A number as the screen writes it: Western digits (the demo's default), grouped, days to one decimal. */
function shown(value: number, unit: 'count' | 'days', lang: 'ar' | 'en'): string {
  return new Intl.NumberFormat(lang === 'ar' ? 'ar-u-nu-latn' : 'en-US', {
    maximumFractionDigits: unit === 'days' ? 1 : 0,
  }).format(value);
}

for (const lang of ['ar', 'en'] as const) {
  for (const width of [1280, 1920]) {
    test(`a manager reads their dashboard and a chart opens its list (${lang}, ${width} px)`, async ({
      page,
      shell,
    }) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width, height: 900 });
      const api = new Api(shell.apiBaseUrl);
      await api.signIn('manager', DEMO_PASSWORD);
      const counted = await api.ok<Dashboard>('GET', '/dashboards/manager');

      await signInAs(page, shell, 'manager', lang);
      await openScreen(page, '/dashboards/manager');
      await expect(page.getByTestId('dash-figures')).toBeVisible();

      // The figures are the API's, in the screen's digits.
      for (const figure of counted.figures)
        await expect(page.getByTestId(`figure-value-${figure.key}`)).toHaveText(
          shown(figure.value, figure.unit, lang),
        );

      // Every chart is drawn; in Arabic the value axis stands on the right of its drawing, in English on the left.
      for (const chart of counted.charts) await expect(page.getByTestId(`chart-${chart.key}`)).toBeVisible();
      const drawn = counted.charts.find((c) => c.categories.length > 0);
      if (drawn) {
        const drawing = page.getByTestId(`chart-drawing-${drawn.key}`);
        await expect(drawing.locator('.recharts-yAxis-tick-labels text').first()).toBeVisible();
        const box = (await drawing.boundingBox())!;
        const axis = (await drawing.locator('.recharts-yAxis-tick-labels text').first().boundingBox())!;
        if (lang === 'ar') expect(axis.x).toBeGreaterThan(box.x + box.width / 2);
        else expect(axis.x + axis.width).toBeLessThan(box.x + box.width / 2);
      }
      await expectFits(page);
      await page.mouse.move(0, 0); // no tooltip over the picture
      if (width === 1280)
        await page.screenshot({ path: `${SCREENS}/dashboards-manager-${lang}-${width}.png`, fullPage: true });

      // A point of the open-items chart (the largest of those behind which is a box) opens that box's list.
      const open = counted.charts.find((c) => c.key === 'openByState')!;
      const points = open.series.flatMap((s, si) =>
        s.values.map((value, ci) => ({ si, ci, value, drill: open.drill?.[si]?.[ci] })),
      );
      const boxed = points.filter((p) => p.drill?.to === 'box').sort((a, b) => b.value - a.value);
      expect(boxed.length, 'the open-items chart has points with a box behind them').toBeGreaterThan(0);
      const { si, ci } = boxed[0]!;
      const drill = open.drill![si]![ci]!;
      const card = page.getByTestId('chart-openByState');
      // The table view holds the chart's numbers; its cell is the point's link.
      await page.getByTestId('chart-view-openByState').locator('.ant-segmented-item').nth(1).click();
      const table = page.getByTestId('chart-table-openByState');
      await expect(table).toBeVisible();
      await expect(card.locator('.recharts-surface')).toHaveCount(0);
      const row = table.locator('tbody tr.ant-table-row').nth(ci);
      const cell = row.locator('td').nth(si + 1);
      await expect(cell).toHaveText(shown(open.series[si]!.values[ci]!, 'count', lang));
      await cell.getByRole('button').click();

      await expect.poll(() => new URL(page.url()).hash).toContain('/correspondence/inbox/incoming?');
      const params = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
      for (const [k, v] of Object.entries(drill.filters)) expect(params.get(k)).toBe(String(v));
      await expect(page.getByTestId('incoming-list-drill')).toBeVisible();
      await expect(page.getByTestId('incoming-list-view')).toBeVisible();
      await settle(page);
      // The list asked the server for the drill's filters (the table shows what the box holds under them).
      await expect(page.getByTestId('incoming-list-table')).toBeVisible();
      await expectFits(page);
      // The whole box is a click away.
      await page.getByTestId('incoming-list-drill-clear').click();
      await expect(page.getByTestId('incoming-list-drill')).toHaveCount(0);
    });
  }

  test(`a manager sees a report's rows and exports it to Excel (${lang})`, async ({ page, shell }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, shell, 'manager', lang);
    await openScreen(page, '/dashboards/reports');
    await expect(page.getByTestId('report-table')).toBeVisible();
    await settle(page);
    await expect(page.getByTestId('report-table').locator('thead th').first()).toBeVisible();
    await expectFits(page);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/dashboards-reports-${lang}-1280.png`, fullPage: true });

    const download = page.waitForEvent('download', { timeout: 120_000 });
    await page.getByTestId('report-export-xlsx').click();
    // The job's progress shows while it runs (a small report may be done before it can be seen), then
    // the file comes down and the progress goes.
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    await expect(page.getByTestId('report-export-progress')).toHaveCount(0);
  });
}

for (const lang of ['ar', 'en'] as const) {
  test(`the archive and organisation dashboards show the API's figures and a figure opens its list (${lang})`, async ({
    page,
    shell,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const api = new Api(shell.apiBaseUrl);
    await api.signIn('admin', DEMO_PASSWORD);
    await signInAs(page, shell, 'admin', lang);

    // The archive office's: every figure as counted; "registered this week" opens the incoming box of those days.
    const archive = await api.ok<Dashboard>('GET', '/dashboards/archive');
    await openScreen(page, '/dashboards/archive');
    await expect(page.getByTestId('dash-figures')).toBeVisible();
    for (const figure of archive.figures)
      await expect(page.getByTestId(`figure-value-${figure.key}`)).toHaveText(
        shown(figure.value, figure.unit, lang),
      );
    await expect(page.getByTestId('chart-registeredByDay')).toBeVisible();
    await expectFits(page);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/dashboards-archive-${lang}-1280.png`, fullPage: true });
    const week = archive.figures.find((f) => f.key === 'registeredThisWeek')!;
    await page.getByTestId('figure-registeredThisWeek').click();
    await expect.poll(() => new URL(page.url()).hash).toContain('/correspondence/inbox/incoming?');
    const boxParams = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
    expect(boxParams.get('fromDate')).toBe(String(week.drill.filters.fromDate));
    expect(boxParams.get('toDate')).toBe(String(week.drill.filters.toDate));
    await expect(page.getByTestId('incoming-list-drill')).toBeVisible();

    // The organisation's: every figure as counted; the incoming letters' figure opens search with its
    // filters, which finds as many (the demo's mail is well under a page of a thousand).
    const organisation = await api.ok<Dashboard>('GET', '/dashboards/organisation');
    await openScreen(page, '/dashboards/organisation');
    await expect(page.getByTestId('dash-figures')).toBeVisible();
    for (const figure of organisation.figures)
      await expect(page.getByTestId(`figure-value-${figure.key}`)).toHaveText(
        shown(figure.value, figure.unit, lang),
      );
    for (const chart of organisation.charts)
      await expect(page.getByTestId(`chart-${chart.key}`)).toBeVisible();
    await expectFits(page);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/dashboards-organisation-${lang}-1280.png`, fullPage: true });
    const incoming = organisation.figures.find((f) => f.key === 'in')!;
    expect(incoming.value, 'the demo has incoming letters this year').toBeGreaterThan(0);
    await page.getByTestId('figure-in').click();
    await expect.poll(() => new URL(page.url()).hash).toContain('/search/documents?');
    const searchParams = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
    for (const [k, v] of Object.entries(incoming.drill.filters)) expect(searchParams.get(k)).toBe(String(v));
    await expect(page.getByTestId('search-total')).toContainText(shown(incoming.value, 'count', lang));
    await expect(page.getByTestId('search-hit').first()).toBeVisible();
    await expectFits(page);
  });

  test(`a report exported to PDF comes down as a PDF (${lang})`, async ({ page, shell }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, shell, 'manager', lang);
    await openScreen(page, '/dashboards/reports');
    await expect(page.getByTestId('report-table')).toBeVisible();
    await settle(page);
    const download = page.waitForEvent('download', { timeout: 120_000 });
    await page.getByTestId('report-export-pdf').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    const path = await file.path();
    expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(page.getByTestId('report-export-progress')).toHaveCount(0);
  });
}
