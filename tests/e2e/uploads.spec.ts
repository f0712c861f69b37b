/**
 * Choosing a PDF in a form, in Chromium: a PDF locked by a password is refused before anything is sent,
 * saying it is encrypted and how to unlock it (print it to a new PDF), in Arabic and in English; a PDF
 * whose password only restricts printing or copying opens without one and is taken.
 */
import { expect, test } from './fixtures';
import { Api, seedArchiveOffice } from './support/api';
import { dropFiles } from './support/pdf';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';
import { encryptedPdf, ownerLockedPdf } from '../api/support/files';

const PASSWORD = 'Locks#2026';

test('a clerk who chooses a password-protected PDF is told it is encrypted and what to do', async ({
  page,
  shell,
}) => {
  test.setTimeout(180_000);
  const admin = await Api.administrator(shell.apiBaseUrl);
  await seedArchiveOffice(admin, {
    roleName: 'Upload Clerk',
    pages: { [PAGES.inboxAdd]: ['add'], [PAGES.inboxDrafts]: ['add', 'edit'] },
    username: 'uploader',
    password: PASSWORD,
  });
  const app = new AdminShell(page);
  await app.open(shell.url);
  await app.signIn('uploader', PASSWORD);
  await app.goTo(shell.url, PAGES.inboxAdd);

  await dropFiles(page, 'attachment-drop', [{ name: 'مقفل.pdf', bytes: encryptedPdf() }]);
  await expect(page.getByText('«مقفل.pdf» محميّ بكلمة مرور (مشفّر)')).toBeVisible();
  await expect(page.getByText('اطبعه إلى ملف PDF جديد', { exact: false })).toBeVisible();
  await expect(page.getByTestId('attachment-row')).toHaveCount(0);
  // Only printing and copying restricted: it opens without a password, and is taken.
  await dropFiles(page, 'attachment-drop', [{ name: 'restricted.pdf', bytes: ownerLockedPdf() }]);
  await expect(page.getByTestId('attachment-row')).toHaveCount(1);
  await expect(page.getByTestId('attachment-row')).toContainText('restricted.pdf');

  await app.switchLanguage();
  await dropFiles(page, 'attachment-drop', [{ name: 'locked.pdf', bytes: encryptedPdf() }]);
  await expect(page.getByText('“locked.pdf” is protected by a password (encrypted)')).toBeVisible();
  await expect(page.getByText('print it to a new PDF', { exact: false })).toBeVisible();
  await expect(page.getByTestId('attachment-row')).toHaveCount(1);
});
