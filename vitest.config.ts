/**
 * Vitest projects: `unit` (shared and main-process code under Node), `api` (the REST server against
 * PGlite, or PostgreSQL when SIJILL_TEST_DATABASE_URL is set), `renderer` (React in happy-dom).
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One PGlite instance per file is memory-hungry: keep files from running all at once, in
          // their own group (projects with different worker limits must not share a group).
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['tests/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/renderer/setup.ts'],
          // A guard against a hang, not a speed limit: on two busy cores a form test can take 5 s.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
