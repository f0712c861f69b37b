/**
 * The headless scanning station, for a scanning PC nobody sits at:
 *
 *   SIJILL_STATION_PASSWORD=… npm run station -- --folder /srv/scans --server http://archive:8787 --user scanner
 *
 * Options: --folder (repeat for several), --server, --user, the password in SIJILL_STATION_PASSWORD
 * (never on the command line, where `ps` shows it), --data-dir (its queue, default .data/station),
 * --poll (poll the folders: network shares), --scan-ms, --stable-ms, --concurrency (requests at once),
 * --batch (files a request at most), --lang ar|en (the language the server answers in; a rejection
 * note says why in both languages whatever it is, the server's words quoted in their own language's
 * half only), --once (exit when every file is handled).
 * It is the desktop's station service with a sign-in of its own (an account without two-factor).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StationQueue } from './queue';
import { Station } from './station';
import { SignInRefused, signInTransport } from './transport';

const USAGE =
  'usage: npm run station -- --folder DIR [--folder DIR…] --server URL --user NAME ' +
  '[--data-dir DIR] [--poll] [--scan-ms N] [--stable-ms N] [--concurrency N] [--batch N] [--lang ar|en] [--once]\n' +
  'The password is read from SIJILL_STATION_PASSWORD.';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      folder: { type: 'string', multiple: true },
      server: { type: 'string' },
      user: { type: 'string' },
      'data-dir': { type: 'string', default: '.data/station' },
      poll: { type: 'boolean', default: false },
      'scan-ms': { type: 'string', default: '2000' },
      'stable-ms': { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '2' },
      batch: { type: 'string', default: '32' },
      lang: { type: 'string', default: 'ar' },
      once: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const password = process.env.SIJILL_STATION_PASSWORD;
  if (values.help || !values.folder?.length || !values.server || !values.user || !password) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const number = (name: 'scan-ms' | 'stable-ms' | 'concurrency' | 'batch') => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < (name === 'concurrency' || name === 'batch' ? 1 : 0))
      throw new Error(`--${name} must be a whole number`);
    return n;
  };
  const dataDir = resolve(values['data-dir']);
  mkdirSync(dataDir, { recursive: true });
  const folders = values.folder.map((f) => resolve(f));
  for (const folder of folders) mkdirSync(folder, { recursive: true });

  const transport = signInTransport({
    server: values.server,
    username: values.user,
    password,
    locale: values.lang === 'en' ? 'en' : 'ar',
  });
  // Signs in, and keeps trying while the server is down or starting (the station waits, it does not quit);
  // wrong credentials end it, since no retry will fix them.
  const signIn = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        await transport.signIn();
        return;
      } catch (error) {
        if (error instanceof SignInRefused) throw error;
        console.log(`station: the server cannot be reached (${(error as Error).message}); trying again`);
        await new Promise((r) => setTimeout(r, Math.min(1000 * attempt, 30_000)));
      }
    }
  };
  await signIn();
  const queue = StationQueue.open(join(dataDir, 'station.sqlite'));
  const station = new Station({
    queue,
    transport,
    folders,
    polling: values.poll,
    scanIntervalMs: number('scan-ms'),
    stableMs: number('stable-ms'),
    concurrency: number('concurrency'),
    batchFiles: number('batch'),
    log: (line) => console.log(line),
  });
  const stop = async () => {
    await station.stop();
    queue.close();
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  process.once('SIGTERM', () => void stop().then(() => process.exit(143)));
  station.start();
  console.log(`station: watching ${folders.join(', ')} for ${values.server}`);
  if (values.once) {
    // Give the first scan time to see the files and let them settle, then wait until all are handled.
    await new Promise((r) => setTimeout(r, number('stable-ms') + 100));
    for (;;) {
      await station.tick();
      await station.drain();
      await new Promise((r) => setTimeout(r, Math.min(number('scan-ms'), 500)));
      await station.tick();
      await station.drain();
      const c = station.status().counts;
      if (c.waiting + c.queued + c.uploading + c.moving === 0) break;
    }
    console.log(`station: done ${JSON.stringify(station.status().counts)}`);
    await stop();
    return 0;
  }
  setInterval(() => {
    const c = station.status().counts;
    console.log(`station: ${JSON.stringify(c)}`);
  }, 60_000).unref();
  return new Promise<number>(() => undefined); // runs until a signal
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`station: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  },
);
