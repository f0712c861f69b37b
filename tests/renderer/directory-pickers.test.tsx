/**
 * The shared directory building blocks: the department picker's tree (names in the interface language,
 * inactive and excluded subtrees left out) and its search in both languages with Arabic normalised
 * (tashkeel, hamza forms, ى/ي, ة/ه); the department tree screen asking the server with the search and
 * type; the PDF and image checks by content, with the specification's messages.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { DepartmentTreeNode } from '../../src-shared/api/directory';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { departmentMatches, toPickerNodes } from '../../src-renderer/components/DepartmentPicker';
import {
  isImageBytes,
  isPdfBytes,
  namesEncryption,
  needsPassword,
  formatSize,
  pdfFileProblem,
} from '../../src-renderer/components/upload/transfer';
import { DepartmentsPage } from '../../src-renderer/features/directory/DepartmentsPage';
import { fakeHttp, renderScreen, type Routes } from './admin-harness';

type HttpModule = typeof HttpModuleValue;
const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
}));
vi.mock('../../src-renderer/lib/http', async (original) => ({
  ...(await original<HttpModule>()),
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
}));

function node(
  id: number,
  nameAr: string,
  nameEn: string,
  children: DepartmentTreeNode[] = [],
  active = true,
) {
  return {
    id,
    nameAr,
    nameEn,
    parentId: null,
    type: 'internal' as const,
    isEntity: false,
    archiveType: 'none' as const,
    archiveOfficeId: null,
    managerEmployeeId: null,
    active,
    matched: false,
    children,
  };
}

const TREE: DepartmentTreeNode[] = [
  node(1, 'الإدارة العامة', 'General Administration', [
    node(2, 'إدارة الموارد البشرية', 'Human Resources', [node(4, 'قسم التوظيف', 'Recruitment')]),
    node(3, 'قسم الأرشيف', 'Archive Section', [], false),
  ]),
];

/** The same departments as the picker's flat rows (GET /ec/departments/options). */
const OPTIONS = [
  { id: 1, nameAr: 'الإدارة العامة', nameEn: 'General Administration', parentId: null },
  { id: 2, nameAr: 'إدارة الموارد البشرية', nameEn: 'Human Resources', parentId: 1 },
  { id: 3, nameAr: 'قسم الأرشيف', nameEn: 'Archive Section', parentId: 1 },
  { id: 4, nameAr: 'قسم التوظيف', nameEn: 'Recruitment', parentId: 2 },
].map((o) => ({ ...o, type: 'internal' as const, active: true }));

let fake: ReturnType<typeof fakeHttp>;
function serve(routes: Routes) {
  fake = fakeHttp(routes);
  holder.fake = fake as never;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  serve({ 'GET /ec/departments/tree': () => ({ roots: TREE }) });
});

describe('DepartmentPicker', () => {
  it('builds the tree from the flat picker rows in the interface language, without an excluded subtree', async () => {
    const en = toPickerNodes(OPTIONS, 'en');
    expect(en[0]!.title).toBe('General Administration');
    expect(en[0]!.children.map((c) => c.title)).toEqual(['Human Resources', 'Archive Section']);
    expect(en[0]!.children[0]!.children.map((c) => c.title)).toEqual(['Recruitment']);
    const ar = toPickerNodes(OPTIONS, 'ar');
    expect(ar[0]!.children.map((c) => c.title)).toEqual(['إدارة الموارد البشرية', 'قسم الأرشيف']);
    const moving = toPickerNodes(OPTIONS, 'en', { excludeId: 2 });
    expect(moving[0]!.children.map((c) => c.title)).toEqual(['Archive Section']);
    // A row whose parent is not offered (inactive) is still choosable, as a root.
    expect(toPickerNodes(OPTIONS.slice(1), 'en').map((n) => n.title)).toEqual([
      'Human Resources',
      'Archive Section',
    ]);
  });

  it('matches in both languages with Arabic normalised', () => {
    const [root] = toPickerNodes(OPTIONS, 'en');
    const hr = root!.children[0]!;
    // Typed without hamza and with ه for ة; with tashkeel; in English, any case.
    expect(departmentMatches('اداره', hr)).toBe(true);
    expect(departmentMatches('الْمَوَارِد', hr)).toBe(true);
    expect(departmentMatches('human', hr)).toBe(true);
    expect(departmentMatches('RESOURCES', hr)).toBe(true);
    expect(departmentMatches('الارشيف', hr)).toBe(false);
    expect(departmentMatches('', hr)).toBe(true);
  });
});

describe('DepartmentsPage', () => {
  it('shows the tree, asks the server with the search and the type, and details the selected node', async () => {
    renderScreen(<DepartmentsPage permissions={['view', 'add', 'edit', 'activate']} />);
    expect(await screen.findByText('Human Resources')).toBeTruthy();
    expect(screen.getByText('Recruitment')).toBeTruthy();
    expect(fake.calls[0]!.query).toEqual({ type: 'internal', active: 'true' });

    fireEvent.change(
      screen.getByTestId('department-search').querySelector('input') ??
        screen.getByTestId('department-search'),
      {
        target: { value: 'التوظيف' },
      },
    );
    await waitFor(() =>
      expect(fake.calls.some((c) => (c.query as { q?: string })?.q === 'التوظيف')).toBe(true),
    );

    fireEvent.click(screen.getByText('External entities'));
    await waitFor(() =>
      expect(fake.calls.some((c) => (c.query as { type?: string })?.type === 'external')).toBe(true),
    );
  });

  it('hides add, edit and activate without the permissions', async () => {
    serve({ 'GET /ec/departments/tree': () => ({ roots: TREE }), 'GET /ec/departments/2': () => ({}) });
    renderScreen(<DepartmentsPage permissions={['view']} />);
    fireEvent.click(await screen.findByText('Human Resources'));
    await screen.findByTestId('department-detail-title');
    expect(screen.queryByTestId('department-add-main')).toBeNull();
    expect(screen.queryByTestId('department-add-child')).toBeNull();
    expect(screen.queryByTestId('department-edit')).toBeNull();
    expect(screen.queryByTestId('department-toggle-active')).toBeNull();
  });
});

describe('file checks by content', () => {
  const pdf = new TextEncoder().encode('%PDF-1.7\n...');
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  it('recognises PDFs and images by their first bytes, not their names', () => {
    expect(isPdfBytes(pdf)).toBe(true);
    expect(isPdfBytes(png)).toBe(false);
    expect(isImageBytes(png)).toBe(true);
    expect(isImageBytes(pdf)).toBe(false);
  });

  it('refuses a renamed file and a large one with the specification’s messages, naming the file', async () => {
    const renamed = new File([png], 'contract.pdf', { type: 'application/pdf' });
    expect(await pdfFileProblem(renamed, 20 * 1024 * 1024, 'en')).toBe(
      '“contract.pdf”: Please select a valid PDF file',
    );
    const big = new File([pdf, new Uint8Array(2048)], 'big.pdf', { type: 'application/pdf' });
    expect(await pdfFileProblem(big, 1024, 'en')).toBe(
      `“big.pdf”: File size must be less than ${formatSize(1024, 'en')}`,
    );
    expect(await pdfFileProblem(renamed, 20 * 1024 * 1024, 'ar')).toBe(
      '«contract.pdf»: يرجى اختيار ملف PDF صالح',
    );
    expect(await pdfFileProblem(new File([pdf], 'ok.pdf'), 1024 * 1024)).toBeNull();
  });

  it('sees a PDF that names an encryption dictionary at either end, and not one that does not', () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(namesEncryption(encode('trailer\n<< /Size 6 /Root 1 0 R /Encrypt 5 0 R >>'))).toBe(true);
    expect(namesEncryption(encode('<< /Type /XRef /Encrypt << /Filter /Standard >> >>'))).toBe(true);
    // The name alone, or a longer name that starts with it, is not an encryption dictionary.
    expect(namesEncryption(encode('<< /EncryptMetadata false >>'))).toBe(false);
    expect(namesEncryption(encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj'))).toBe(false);
  });

  it('takes a PDF that names no encryption without opening it', async () => {
    const body = new Uint8Array(300 * 1024).fill(0x20); // larger than both ends looked at
    const file = new File([pdf, body, new TextEncoder().encode('trailer << /Root 1 0 R >>')], 'scan.pdf');
    expect(await needsPassword(file)).toBe(false);
    expect(await pdfFileProblem(file, 1024 * 1024, 'en')).toBeNull();
  });
});
