// ESLint flat config. Besides style, it machine-checks the import table of docs/architecture.md:
// which runtime folder may import which, so nobody has to remember the rules.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'crypto',
  'child_process',
  'http',
  'https',
  'net',
  'url',
  'util',
  'stream',
  'events',
  'worker_threads',
].map((name) => (name.startsWith('node:') ? name : `/${name}`)); // anchored: a bare `http` would also match `../lib/http`

const rendererForbidden = [
  ...nodeBuiltins,
  'electron',
  '**/src-main/**',
  '**/src-server/**',
  '**/src-preload/**',
];
const rendererMessage =
  'The renderer never touches Node, Electron, main, preload or the server: it asks main through the bridge.';
const serverForbidden = ['electron', '**/src-main/**', '**/src-renderer/**', '**/src-preload/**'];
const serverMessage =
  'src-server may import src-shared only (never electron, src-main, src-renderer or src-preload).';
/** The feature folders of the renderer (each a vertical slice). */
const FEATURES = readdirSync(new URL('./src-renderer/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** One `no-restricted-imports` rule from plain lists of forbidden module patterns. */
function forbid(groups, message) {
  return ['error', { patterns: [{ group: groups, message }] }];
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      'release/',
      '.data/',
      'test-results/',
      'playwright-report/',
      'artifacts/',
      'src-server/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [
          ...nodeBuiltins,
          'electron',
          'react',
          'react-dom',
          '**/src-server/**',
          '**/src-main/**',
          '**/src-renderer/**',
          '**/src-preload/**',
        ],
        'src-shared runs anywhere: it may import nothing runtime-specific and no other src-* folder.',
      ),
    },
  },
  {
    files: ['src-server/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(serverForbidden, serverMessage),
    },
  },
  // db/ is below HTTP: it throws its own errors (db/errors.ts) and http/ maps them to problems.
  {
    files: ['src-server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: serverForbidden, message: serverMessage },
            {
              group: ['../http', '../http/**', '../../http', '../../http/**', '**/src-server/http/**'],
              message:
                'src-server/db imports nothing from src-server/http: throw an error of db/errors.ts and map it in http/db-problems.ts.',
            },
          ],
        },
      ],
    },
  },
  // A module reads its own tables through its own queries; another module's queries are reached through
  // that module's service. (Types, such as the transaction type, may be shared.) The demo data writes
  // through every module's SQL by design.
  {
    files: ['src-server/modules/**/*.ts'],
    ignores: ['src-server/modules/demo/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/queries', '../*/*-queries', '**/modules/*/queries', '**/modules/*/*-queries'],
              allowTypeImports: true,
              message:
                "A module does not import another module's queries: call that module's service, or move what both need to src-server/db.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**', 'src-main/embedded/**'],
    rules: {
      'no-restricted-imports': forbid(
        ['electron', '**/src-renderer/**', '**/src-preload/**', '**/src-server/**'],
        'Only src-main/electron imports electron, and only src-main/embedded (the embedded-server launcher) imports src-server.',
      ),
    },
  },
  {
    files: ['src-main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        ['**/src-renderer/**', '**/src-preload/**', '**/src-server/**'],
        'src-main/electron may not import the renderer, preload or server (the server goes through src-main/embedded).',
      ),
    },
  },
  {
    files: ['src-main/embedded/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        ['electron', '**/src-renderer/**', '**/src-preload/**'],
        'The embedded-server launcher runs under plain Node.',
      ),
    },
  },
  {
    files: ['src-preload/**/*.ts'],
    rules: {
      'no-restricted-imports': forbid(
        [...nodeBuiltins, '**/src-server/**', '**/src-main/**', '**/src-renderer/**'],
        'Preload is the bridge and nothing else: it may import electron and src-shared only.',
      ),
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': forbid(rendererForbidden, rendererMessage),
    },
  },
  // Shared renderer code (lib, components) serves the features and never depends on one of them.
  {
    files: ['src-renderer/lib/**/*.{ts,tsx}', 'src-renderer/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: rendererForbidden, message: rendererMessage },
            {
              group: ['**/features/**', '**/features'],
              message:
                'src-renderer/lib and src-renderer/components are shared by the features: they may not import one. Move what they need here.',
            },
          ],
        },
      ],
    },
  },
  // A feature imports src-renderer/lib, components and app, never another feature: what two features
  // share moves to lib/ or components/. (A later block replaces the rule for its files, so each repeats
  // the renderer's own patterns.)
  ...FEATURES.map((feature) => ({
    files: [`src-renderer/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: rendererForbidden, message: rendererMessage },
            {
              group: FEATURES.filter((other) => other !== feature).flatMap((other) => [
                `**/features/${other}`,
                `**/features/${other}/**`,
                `../${other}`,
                `../${other}/**`,
                `../../${other}`,
                `../../${other}/**`,
              ]),
              message: `src-renderer/features/${feature} may not import another feature: move what they share to src-renderer/lib or src-renderer/components.`,
            },
          ],
        },
      ],
    },
  })),
);
