/**
 * A route whose code fails to load, or that throws while rendering, shows the translated error page: inside
 * the main layout for a page (the menu stays, with a way home), at the root for a layout. A chunk that fails
 * once and loads on its second try shows its page. The routes are the router's own (`makeRoutes`, the real
 * guard over a signed-in session), in a memory router, with a test layout and pages whose loading we decide.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { PageSection } from '../../src-shared/api/auth';
import { PAGES } from '../../src-shared/pages';
import { makeRoutes, type RouteParts } from '../../src-renderer/app/router';
import { isChunkLoadError } from '../../src-renderer/app/RouteError';
import { FIRST_TRY_FAILED } from '../../src-renderer/app/load-twice';
import { sessionStore } from '../../src-renderer/app/session';
import { i18n, initI18n } from '../../src-renderer/lib/i18n';
import { renderScreen } from './admin-harness';
import { treePage } from './tree-page';

const page = (path: string): PageSection['children'][number] => treePage(path);
/** The tree: the jobs page first (where `/` leads), then the employees and departments pages. */
const SECTIONS: PageSection[] = [
  {
    ...page('/directory'),
    children: [page(PAGES.jobs), page(PAGES.employees), page(PAGES.departments)],
  },
];

/** What Chromium says when a module's fetch fails. */
const chunkFailure = () =>
  new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/EmployeesPage-x1.js');

function TestLayout() {
  return (
    <div>
      <nav data-testid="side-menu">menu</nav>
      <main>
        <Outlet />
      </main>
    </div>
  );
}
const testLayout = async () => ({ Component: TestLayout });

function JobsPage() {
  return <h1 data-testid="jobs-page">jobs</h1>;
}
function EmployeesPage() {
  return <h1 data-testid="employees-page">employees</h1>;
}
function BrokenPage(): never {
  throw new Error('a bug while rendering');
}

/** Renders the routes at `path` with `employees` as the employees page's loader. */
function renderAt(
  path: string,
  employees: () => Promise<{ Component: () => React.ReactNode }>,
  parts: Partial<RouteParts> = {},
) {
  const router = createMemoryRouter(
    makeRoutes({
      mainLayout: testLayout,
      mainRoutes: [
        { path: PAGES.jobs, treePath: PAGES.jobs, lazy: async () => ({ Component: JobsPage }) },
        { path: PAGES.employees, treePath: PAGES.employees, lazy: employees },
        {
          path: PAGES.departments,
          treePath: PAGES.departments,
          lazy: async () => ({ Component: BrokenPage }),
        },
      ],
      retryPauseMs: 0,
      ...parts,
    }),
    { initialEntries: [path] },
  );
  renderScreen(<RouterProvider router={router} />);
  return router;
}

const WORDS = {
  ar: {
    loadTitle: 'تعذر تحميل هذه الصفحة',
    loadMessage: 'تحقق من الاتصال ثم أعد المحاولة.',
    title: 'حدث خطأ ما',
    retry: 'إعادة المحاولة',
    home: 'العودة إلى الصفحة الرئيسية',
  },
  en: {
    loadTitle: 'This page could not be loaded',
    loadMessage: 'Check the connection and try again.',
    title: 'Something went wrong',
    retry: 'Try again',
    home: 'Back to the home page',
  },
} as const;

let logged: ReturnType<typeof vi.spyOn>;
let warned: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  await initI18n('ar');
});
beforeEach(() => {
  sessionStore.reset({ signedIn: true, sections: SECTIONS });
  logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  logged.mockRestore();
  warned.mockRestore();
});
afterAll(() => sessionStore.reset());

describe.each(['ar', 'en'] as const)('in %s', (lang) => {
  beforeEach(async () => {
    await i18n.changeLanguage(lang);
  });
  const words = WORDS[lang];

  it("a page whose chunk fails twice shows 'could not be loaded' in the layout, the menu still there", async () => {
    const employees = vi.fn(() => Promise.reject(chunkFailure()));
    renderAt(PAGES.employees, employees);
    const error = await screen.findByTestId('route-error');
    expect(error.dataset.kind).toBe('chunk');
    // In the layout's page area, not over the window.
    expect(error.closest('main')).toBeTruthy();
    expect(error.closest('.full-page')).toBeNull();
    expect(error.textContent).toContain(words.loadTitle);
    expect(error.textContent).toContain(words.loadMessage);
    expect(screen.getByTestId('route-error-retry').textContent).toBe(words.retry);
    expect(screen.getByTestId('route-error-home').textContent).toBe(words.home);
    expect(screen.getByTestId('side-menu')).toBeTruthy();
    // Tried twice, the failure logged, and nothing of the error itself on the screen.
    expect(employees).toHaveBeenCalledTimes(2);
    expect(logged).toHaveBeenCalledWith('A route failed:', expect.any(TypeError));
    expect(document.body.textContent).not.toContain('Failed to fetch');
    expect(document.body.textContent).not.toContain('EmployeesPage');
  });

  it("a page that throws while rendering shows 'something went wrong' in the layout, and the way home works", async () => {
    renderAt(PAGES.departments, async () => ({ Component: EmployeesPage }));
    const error = await screen.findByTestId('route-error');
    expect(error.dataset.kind).toBe('other');
    expect(error.textContent).toContain(words.title);
    expect(error.textContent).not.toContain(words.loadTitle);
    expect(document.body.textContent).not.toContain('a bug while rendering');
    expect(screen.getByTestId('side-menu')).toBeTruthy();
    fireEvent.click(screen.getByTestId('route-error-home'));
    // `/` leads to the first page of the tree (the guard), which loads.
    expect(await screen.findByTestId('jobs-page')).toBeTruthy();
    expect(screen.queryByTestId('route-error')).toBeNull();
  });

  it('a layout whose chunk fails shows the light error page at the root, without the layout', async () => {
    const layout = vi.fn(() => Promise.reject(chunkFailure()));
    renderAt(PAGES.jobs, async () => ({ Component: EmployeesPage }), { mainLayout: layout });
    const error = await screen.findByTestId('route-error');
    expect(error.closest('.full-page')).toBeTruthy();
    expect(error.textContent).toContain(words.loadTitle);
    expect(error.textContent).toContain(words.loadMessage);
    expect(screen.getByTestId('route-error-retry').textContent).toBe(words.retry);
    expect(screen.queryByTestId('route-error-home')).toBeNull();
    expect(screen.queryByTestId('side-menu')).toBeNull();
    expect(layout).toHaveBeenCalledTimes(2);
  });
});

it('a page whose chunk fails once and loads on the second try is shown', async () => {
  await i18n.changeLanguage('ar');
  let tries = 0;
  const employees = vi.fn(async () => {
    tries += 1;
    if (tries === 1) throw chunkFailure();
    return { Component: EmployeesPage };
  });
  renderAt(PAGES.employees, employees);
  expect(await screen.findByTestId('employees-page')).toBeTruthy();
  expect(screen.queryByTestId('route-error')).toBeNull();
  expect(employees).toHaveBeenCalledTimes(2);
  expect(warned).toHaveBeenCalledWith(FIRST_TRY_FAILED, expect.any(TypeError));
  expect(logged).not.toHaveBeenCalledWith('A route failed:', expect.anything());
});

describe('isChunkLoadError', () => {
  it("knows the engines' words for a module that could not be fetched, and Vite's for its stylesheet", () => {
    expect(isChunkLoadError(chunkFailure())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/Page-x1.css'))).toBe(true);
  });
  it('is false for any other error', () => {
    expect(isChunkLoadError(new Error('a bug while rendering'))).toBe(false);
    expect(isChunkLoadError({ status: 404 })).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
