/**
 * Typing while the form autosaves (issue 14): `npx tsx bench/drafts/typing.ts` builds the renderer
 * (unless --no-build and out/renderer exists), starts the web shell on a fresh data folder, creates the
 * first administrator and types into the incoming form in Chromium as a clerk does: bursts of words with
 * pauses long enough for the autosave (0.8 s after the last change) to run, and the next burst starting
 * while it does. Printed:
 * - the autosave's cost on the page's main thread (reading the form and handing the fields to main:
 *   `sijill:autosave:thread`) and its round trip through main's store (`sijill:autosave:roundtrip`);
 * - what typing felt like: the Event Timing API's duration of every key event (input delay, handlers and
 *   the next paint), p50 / p95 / max, during the whole run, and the long tasks (> 50 ms) the page had;
 * - that the field ends exactly as typed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { startWebShell } from '../../src-main/web/shell';
import { PAGES } from '../../src-shared/pages';
import { BENCH_RENDERER, buildRenderer, createFirstAdmin } from '../browser';
import { percentile } from '../harness';

const RENDERER = BENCH_RENDERER;
const BURSTS = Number(process.env.BENCH_BURSTS ?? 12);

const round = (n: number) => Math.round(n * 100) / 100;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? 0),
  };
};

async function main() {
  buildRenderer();
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-typing-'));
  const shell = await startWebShell({ dataDir, rendererDir: RENDERER });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await createFirstAdmin(page, shell.url);
    await page.evaluate(`window.location.hash = '${PAGES.inboxAdd}'`);
    await page.getByTestId('field-subject').waitFor();
    // The observers run in the page (a script, not a function: this file has no DOM types).
    await page.evaluate(`
      window.__events = [];
      window.__long = [];
      window.__t0 = Infinity;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          if (['keydown', 'keypress', 'keyup', 'input', 'beforeinput'].includes(e.name) && e.startTime >= window.__t0)
            window.__events.push(e.duration);
      }).observe({ type: 'event', durationThreshold: 16, buffered: true });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.startTime >= window.__t0) window.__long.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
    `);

    const words = 'ناقشت اللجنة الفنية الميزانية التشغيلية للعام المالي وأوصت بصيانة المباني ';
    const summary = page.getByTestId('field-summary');
    await page.getByTestId('field-subject').fill('محضر اجتماع اللجنة الفنية');
    await summary.click();
    // From here on: only what happens while typing counts (not the page's loading).
    await page.evaluate(`window.__t0 = performance.now()`);
    let typed = '';
    let keys = 0;
    for (let burst = 0; burst < BURSTS; burst++) {
      await page.keyboard.type(words, { delay: 25 });
      typed += words;
      keys += [...words].length;
      // A pause long enough for the autosave; the next burst starts while it may still be running.
      await page.waitForTimeout(850);
    }
    await page.waitForTimeout(1500);
    const measured = (await page.evaluate(`({
      thread: performance.getEntriesByName('sijill:autosave:thread').map((e) => e.duration),
      roundtrip: performance.getEntriesByName('sijill:autosave:roundtrip').map((e) => e.duration),
      events: window.__events,
      long: window.__long,
    })`)) as { thread: number[]; roundtrip: number[]; events: number[]; long: number[] };
    const value = await summary.inputValue();
    const result = {
      keysTyped: keys,
      autosaves: measured.thread.length,
      autosaveOnPageThreadMs: stats(measured.thread),
      autosaveRoundTripMs: stats(measured.roundtrip),
      keyEventsOver16ms: stats(measured.events),
      keyEventsOver16msShare: `${round((100 * measured.events.length) / (keys * 3))}% of key events`,
      longTasks: stats(measured.long),
      typedAsTyped: value === typed,
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(
      `\nTyping with autosave: ${keys} keys, ${result.autosaves} autosaves; the autosave on the page's thread p95 ${result.autosaveOnPageThreadMs.p95} ms (max ${result.autosaveOnPageThreadMs.max}), round trip through main p95 ${result.autosaveRoundTripMs.p95} ms; key events slower than 16 ms: ${measured.events.length} (p95 ${result.keyEventsOver16ms.p95} ms, max ${result.keyEventsOver16ms.max} ms); long tasks: ${measured.long.length}`,
    );
  } finally {
    await browser.close();
    await shell.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
