/**
 * Summarises a Chromium performance trace of one opening of the viewer (`BENCH_PROFILE=FILE npx tsx
 * bench/pdf-viewer/run.ts`): `npx tsx bench/pdf-viewer/trace-summary.ts FILE` prints, for the renderer's
 * main thread between the click and page 1 drawn (the marks bench:click and bench:shown), every task of
 * 4 ms or more (when it starts from the click, how long, and the kinds of work inside it: script, style,
 * layout, paint, garbage collection), the time by kind, the page's marks, and the JavaScript functions
 * that took the most time of their own (from the trace's CPU profile), with their file.
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  cat: string;
  id?: string;
  args?: Record<string, unknown>;
}

const file = process.argv[2];
if (!file) throw new Error('usage: trace-summary.ts TRACE.json');
const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : raw.traceEvents;

const mark = (name: string) => events.find((e) => e.name === name && e.cat.includes('blink.user_timing'));
const click = mark('bench:click');
const shown = mark('bench:shown');
if (!click || !shown) throw new Error('the marks bench:click and bench:shown are not in the trace');
const { pid } = click;
const main = events.find(
  (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain',
)!.tid;
const [from, to] = [click.ts, shown.ts];
const ms = (us: number) => Math.round(us / 100) / 10;

const onMain = events.filter((e) => e.pid === pid && e.tid === main && e.ph === 'X' && e.dur !== undefined);
const kind = (name: string) =>
  /^(FunctionCall|EvaluateScript|v8\.compile|V8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|v8\.run|ParseHTML|v8\.callFunction)/.test(
    name,
  )
    ? 'script'
    : /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet)/.test(name)
      ? 'style'
      : /^(Layout|UpdateLayerTree|IntersectionObserverController|ResizeObserver)/.test(name)
        ? 'layout'
        : /^(Paint|PrePaint|Layerize|Commit|CompositeLayers|UpdateLayer|RasterTask|Decode)/.test(name)
          ? 'paint'
          : /GC|Scavenge|MajorGC|MinorGC/.test(name)
            ? 'gc'
            : null;

const tasks = onMain.filter(
  (e) =>
    e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask' || e.name === 'ThreadPool_RunTask',
);
const inside = (outer: TraceEvent, e: TraceEvent) =>
  e.ts >= outer.ts && e.ts + e.dur! <= outer.ts + outer.dur!;
/** Time of each kind inside a span: the outermost event of each kind counts, nested ones not again. */
function kinds(span: TraceEvent): Record<string, number> {
  const within = onMain.filter((e) => e !== span && inside(span, e) && kind(e.name));
  const out: Record<string, number> = {};
  for (const e of within) {
    const k = kind(e.name)!;
    const nestedInSame = within.some((o) => o !== e && kind(o.name) === k && inside(o, e) && o.dur! > e.dur!);
    if (!nestedInSame) out[k] = (out[k] ?? 0) + e.dur!;
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, ms(v)]));
}

const window = tasks.filter((t) => t.ts + t.dur! > from && t.ts < to);
const busy = window.reduce((sum, t) => sum + t.dur!, 0);
const totals: Record<string, number> = {};
console.log(`click → page 1 drawn: ${ms(to - from)} ms; main thread busy in tasks: ${ms(busy)} ms`);
console.log('\ntasks of 4 ms or more (start from the click, duration, kinds inside):');
for (const t of window) {
  const k = kinds(t);
  for (const [name, v] of Object.entries(k)) totals[name] = (totals[name] ?? 0) + v;
  if (t.dur! < 4000) continue;
  const top = onMain
    .filter(
      (e) =>
        e !== t &&
        inside(t, e) &&
        /^(FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|Layout|UpdateLayoutTree)/.test(
          e.name,
        ),
    )
    .slice(0, 3)
    .map((e) => {
      const data = (e.args?.data ?? {}) as { url?: string; functionName?: string; type?: string };
      return `${e.name}${data.type ? `(${data.type})` : ''}${data.functionName ? ` ${data.functionName}` : ''}${data.url ? ` ${data.url.replace(/^.*\//, '')}` : ''} ${ms(e.dur!)}`;
    });
  console.log(`  +${ms(t.ts - from)}  ${ms(t.dur!)} ms  ${JSON.stringify(k)}  ${top.join(' | ')}`);
}
console.log(
  '\nby kind (ms):',
  JSON.stringify(Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, Math.round(v)]))),
);
console.log(
  '\nmarks:',
  events
    .filter(
      (e) =>
        e.cat.includes('blink.user_timing') && e.pid === pid && e.ts >= from && e.ts <= to && e.ph !== 'e',
    )
    .map((e) => `${e.name} +${ms(e.ts - from)}`)
    .join(', '),
);

// The CPU profile of each thread of the renderer (Profile / ProfileChunk events, one profile a thread):
// self time by file and by function between the click and page 1 drawn.
interface Node {
  id: number;
  callFrame: { functionName: string; url?: string; lineNumber: number };
}
const threadName = (tid: number) =>
  (events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.tid === tid)?.args
    ?.name as string | undefined) ?? String(tid);
for (const profile of events.filter((x) => x.pid === pid && x.name === 'Profile')) {
  const nodes = new Map<number, Node>();
  let time = (profile.args?.data as { startTime?: number } | undefined)?.startTime ?? 0;
  const self = new Map<number, number>();
  const chunks = events.filter((x) => x.pid === pid && x.name === 'ProfileChunk' && x.id === profile.id);
  let last: number | null = null;
  for (const e of chunks) {
    const data = e.args?.data as {
      cpuProfile?: { nodes?: Node[]; samples?: number[] };
      timeDeltas?: number[];
    };
    for (const n of data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    samples.forEach((id, i) => {
      const at = time + (deltas[i] ?? 0);
      // The time since the sample before is that sample's.
      if (last !== null && time >= from && time <= to) self.set(last, (self.get(last) ?? 0) + (at - time));
      time = at;
      last = id;
    });
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  if (total < 5000) continue;
  const sum = (key: (n: Node) => string) => {
    const out = new Map<string, number>();
    for (const [id, us] of self) {
      const n = nodes.get(id);
      if (n) out.set(key(n), (out.get(key(n)) ?? 0) + us);
    }
    return [...out].sort((a, b) => b[1] - a[1]);
  };
  const file = (n: Node) => (n.callFrame.url ?? '').replace(/^.*\//, '');
  console.log(`\nthread ${threadName(profile.tid)}: ${ms(total)} ms sampled`);
  console.log('  self time by file (ms):');
  for (const [k, v] of sum((n) => file(n) || `(${n.callFrame.functionName})`).slice(0, 8))
    console.log(`    ${ms(v)}  ${k}`);
  console.log('  self time by function (ms):');
  for (const [k, v] of sum(
    (n) => `${n.callFrame.functionName || '(anonymous)'} ${file(n)}:${n.callFrame.lineNumber}`,
  ).slice(0, 15))
    console.log(`    ${ms(v)}  ${k}`);
}
