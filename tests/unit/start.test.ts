/**
 * `npm start` without an Electron binary: a plain message saying what happened and what to do, exit 1,
 * and no stack trace from node_modules.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronBinary } from '../../scripts/electron-binary.mjs';

const root = resolve(import.meta.dirname, '../..');

describe('npm start without Electron', () => {
  it('finds no binary where the override folder holds none', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-electron-'));
    const saved = process.env.ELECTRON_OVERRIDE_DIST_PATH;
    process.env.ELECTRON_OVERRIDE_DIST_PATH = empty;
    try {
      expect(electronBinary()).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.ELECTRON_OVERRIDE_DIST_PATH;
      else process.env.ELECTRON_OVERRIDE_DIST_PATH = saved;
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('says in plain words what to do, exits 1, prints no stack trace', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-electron-'));
    try {
      const run = spawnSync(process.execPath, [join(root, 'scripts/start.mjs')], {
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('npm run web');
      expect(run.stderr).toContain('npm install electron');
      expect(run.stderr + run.stdout).not.toMatch(/\n\s+at |node_modules\/electron\/index\.js/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
