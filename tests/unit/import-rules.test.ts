/**
 * The import table of ARCHITECTURE.md is machine-checked by ESLint: this runs the project's real lint
 * configuration on small sources placed (virtually) in each folder and expects the right verdicts.
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter(
    (m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports',
  ).length;
}

describe('import rules', () => {
  it.each([
    ['src-renderer/features/x.tsx', "import { app } from 'electron';\nexport const a = app;\n"],
    [
      'src-renderer/features/x.ts',
      "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
    ],
    [
      'src-renderer/features/x.ts',
      "import { LocalStore } from '../../src-main/services/local-store';\nexport const s = LocalStore;\n",
    ],
    ['src-shared/x.ts', "import { join } from 'node:path';\nexport const j = join;\n"],
    ['src-shared/x.ts', "import { createRoot } from 'react-dom/client';\nexport const c = createRoot;\n"],
    ['src-server/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src-main/services/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    [
      'src-main/services/x.ts',
      "import { buildApp } from '../../src-server/app';\nexport const b = buildApp;\n",
    ],
    ['src-preload/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    // One feature never imports another.
    [
      'src-renderer/features/correspondence/documents/x.tsx',
      "import { adminKeys } from '../../admin/api';\nexport const k = adminKeys;\n",
    ],
    [
      'src-renderer/features/directory/x.tsx',
      "import { CalendarPage } from '../calendar/CalendarPage';\nexport const c = CalendarPage;\n",
    ],
    // Shared code depends on no feature.
    [
      'src-renderer/components/x.tsx',
      "import { directoryApi } from '../features/directory/api';\nexport const d = directoryApi;\n",
    ],
    [
      'src-renderer/lib/x.ts',
      "import { corrKeys } from '../features/correspondence/documents/api';\nexport const k = corrKeys;\n",
    ],
    [
      'src-renderer/features/calendar/x.tsx',
      "import { x } from '../../features/user/UserSettingsPage';\nexport const c = x;\n",
    ],
    // db/ is below HTTP: it throws its own errors.
    ['src-server/db/x.ts', "import { HttpProblem } from '../http/problem';\nexport const p = HttpProblem;\n"],
    ['src-server/db/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    // A module does not import another module's queries.
    [
      'src-server/modules/search/x.ts',
      "import { rows } from '../correspondence/queries';\nexport const r = rows;\n",
    ],
    [
      'src-server/modules/admin/x.ts',
      "import { entityOf } from '../correspondence/approval-queries';\nexport const e = entityOf;\n",
    ],
  ])('%s may not import that', async (file, code) => {
    expect(await restrictedImports(file, code)).toBeGreaterThan(0);
  });

  it.each([
    [
      'src-renderer/features/x.ts',
      "import { z } from 'zod';\nimport { LOCALES } from '../../src-shared/locale';\nexport const a = [z, LOCALES];\n",
    ],
    ['src-main/electron/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    [
      'src-main/embedded/x.ts',
      "import { buildApp } from '../../src-server/app';\nexport const b = buildApp;\n",
    ],
    ['src-preload/x.ts', "import { contextBridge } from 'electron';\nexport const c = contextBridge;\n"],
    [
      'src-renderer/features/correspondence/documents/x.tsx',
      "import { localName } from '../../../lib/names';\nimport { BoxListScreen } from './BoxListScreen';\nexport const a = [localName, BoxListScreen];\n",
    ],
    [
      'src-server/db/x.ts',
      "import { nestsDeeperThan } from '../../src-shared/json-depth';\nexport const n = nestsDeeperThan;\n",
    ],
    [
      'src-server/http/x.ts',
      "import { ListInputError } from '../db/errors';\nexport const e = ListInputError;\n",
    ],
    // Its own queries, and another module's types, it may.
    [
      'src-server/modules/search/x.ts',
      "import { rowsOf } from '../../db/rows';\nimport type { Tx } from '../auth/queries';\nexport const r = rowsOf;\nexport type T = Tx;\n",
    ],
    [
      'src-server/modules/correspondence/x.ts',
      "import { rows } from './queries';\nimport { entityOf } from './approval-queries';\nexport const r = [rows, entityOf];\n",
    ],
  ])('%s may import that', async (file, code) => {
    expect(await restrictedImports(file, code)).toBe(0);
  });
});
