/**
 * Records management through its screens (issue 31), on the demo organisation: in Arabic the administrator
 * sets a codification's retention to 0 years (so a file closed today is due today: the clock cannot be
 * moved in a browser test), opens a file, closes it and proposes its destruction, and is told why they
 * cannot approve it themselves; a second records manager approves it; the administrator carries it out
 * (the server's background job, followed by the screen until done) and downloads the certificate of
 * destruction (a PDF). Then the files list in English. Every list must fit
 * 1280 px without scrolling sideways. Screenshots in test-results/screens/records-*.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEMO_PASSWORD, expect, test } from './fixtures';
import { Api } from './support/api';
import { openScreen, signInAs, type DemoUser } from './support/demo';
import { expectFits } from './support/fits';

test.use({ demo: true });

const SCREENS = resolve(import.meta.dirname, '../../test-results/screens');
mkdirSync(SCREENS, { recursive: true });
const CODE = 'ARC-E2E-01';

test('a closed file past its retention is proposed, approved by a second person, destroyed, with its certificate', async ({
  page,
  shell,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // A second records manager, who may approve dispositions.
  const api = new Api(shell.apiBaseUrl);
  await api.signIn('admin', DEMO_PASSWORD);
  const roleId = await api.createRole('Records Approver', {
    '/records/files': ['view'],
    '/records/disposition': ['approve'],
  });
  await api.createUser({
    username: 'archivist2',
    password: DEMO_PASSWORD,
    roleId,
    nameEn: 'Second Archivist',
  });
  // A registered demo document, and its codification.
  const found = await api.ok<{ id: number; docNumber: string | null }[]>(
    'GET',
    '/correspondence/documents/lookup?q=',
  );
  const registered = found.find((d) => d.docNumber !== null)!;
  const doc = await api.ok<{ codification: { id: number; prefix: string } }>(
    'GET',
    `/correspondence/documents/${registered.id}`,
  );

  // The administrator, in Arabic: the codification's schedule.
  await signInAs(page, shell, 'admin', 'ar');
  await openScreen(page, '/records/schedules');
  await page.getByTestId(`schedule-set-${doc.codification.prefix}`).click();
  await page.getByTestId('schedule-years').fill('0');
  await page.getByTestId('schedule-reference').fill('لائحة الوثائق والمحفوظات، المادة ١٢');
  await page.getByTestId('schedule-save').click();
  await expect(page.getByTestId('schedules-table')).toContainText('لائحة الوثائق والمحفوظات');
  await expectFits(page);
  await page.screenshot({ path: `${SCREENS}/records-schedules-ar.png` });

  // A file opened on the screen, the document moved into it, the file closed.
  await openScreen(page, '/records/files');
  await page.getByTestId('file-add').click();
  await page.getByTestId('file-code').fill(CODE);
  await page.getByTestId('file-title-ar').fill('ملف مراسلات الميزانية');
  await page.getByTestId('file-title-en').fill('Budget correspondence');
  await page.getByTestId('file-save').click();
  await expect(page.getByTestId(`file-close-${CODE}`)).toBeVisible();
  const files = await api.ok<{ id: number; code: string }[]>('GET', `/records/files?q=${CODE}`);
  await api.ok('POST', `/records/files/${files[0]!.id}/documents`, { documentId: registered.id });
  await page.reload();
  await page.getByTestId(`file-close-${CODE}`).click();
  await expect(page.getByTestId(`file-reopen-${CODE}`)).toBeVisible();
  await expectFits(page);
  await page.screenshot({ path: `${SCREENS}/records-files-ar.png` });

  // Due today: proposed; the proposer sees why they cannot approve it.
  await openScreen(page, '/records/disposition');
  await page.getByTestId(`propose-${CODE}`).click();
  await page.getByTestId('propose-confirm').click();
  await expect(page.getByTestId(`own-proposal-${CODE}`)).toBeVisible();
  await expect(page.getByTestId(`approve-${CODE}`)).toHaveCount(0);
  await expectFits(page);
  await page.screenshot({ path: `${SCREENS}/records-disposition-proposed-ar.png` });

  // The second records manager approves it.
  await signInAs(page, shell, 'archivist2' as DemoUser, 'ar');
  await openScreen(page, '/records/disposition');
  await page.getByTestId(`approve-${CODE}`).click();
  await expect(page.getByTestId(`disposition-state-${CODE}`)).toHaveText('معتمد');

  // The administrator carries it out: the server's job does it while the screen follows it (read again
  // every second) until it is done; then the certificate is downloaded.
  await signInAs(page, shell, 'admin', 'ar');
  await openScreen(page, '/records/disposition');
  await page.getByTestId(`execute-${CODE}`).click();
  await page.getByTestId('execute-confirm').click();
  await expect(page.getByTestId(`disposition-state-${CODE}`)).toHaveText('منفَّذ', { timeout: 60_000 });
  await expect(page.getByTestId(`disposition-job-${CODE}`)).toHaveCount(0);
  const downloading = page.waitForEvent('download');
  await page.getByTestId(`download-${CODE}`).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`destruction-${CODE}.pdf`);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await expectFits(page);
  await page.screenshot({ path: `${SCREENS}/records-disposition-done-ar.png` });

  // The files list in English: the file destroyed.
  await signInAs(page, shell, 'admin', 'en');
  await openScreen(page, '/records/files');
  await expect(page.getByTestId('files-table').getByTestId('file-state-destroyed')).toHaveText('Destroyed');
  await expectFits(page);
  await page.screenshot({ path: `${SCREENS}/records-files-en.png` });
  await openScreen(page, '/records/disposition');
  await expectFits(page);
  await page.screenshot({ path: `${SCREENS}/records-disposition-en.png` });

  // A legal hold on another file, lifted on the screen.
  const held = await api.ok<{ id: number }>('POST', '/records/files', {
    code: 'LIT-2026-03',
    titleAr: 'ملف قضية المورّد',
    titleEn: 'Supplier litigation',
  });
  const hold = await api.ok<{ id: number }>('POST', '/records/holds', {
    fileId: held.id,
    reason: 'Case 114/2026 before the commercial court: keep every record of the supplier',
  });
  await openScreen(page, '/records/holds');
  await expect(page.getByTestId('holds-table')).toContainText('LIT-2026-03');
  await expectFits(page);
  await page.screenshot({ path: `${SCREENS}/records-holds-en.png` });
  await page.getByTestId(`hold-lift-${hold.id}`).click();
  await page.locator('.ant-popconfirm .ant-btn-primary').click();
  await expect(page.getByTestId('holds-table')).not.toContainText('LIT-2026-03');
});
