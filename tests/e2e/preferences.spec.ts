/**
 * A clerk's own settings, in Chromium through the web shell: they land on the first page of the menu
 * (the specification's guard), choose a date format with a four-digit year, Arabic-Indic digits and a
 * home page in the user settings, sign out and in again — the settings come from their account on the
 * server — and land on their home page with its dates, and its date pickers, in the chosen format, in
 * Arabic and in English. Screenshots of the settings in both languages.
 */
import { expect, test } from './fixtures';
import { Api, seedArchiveOffice } from './support/api';
import { chooseOption } from './support/select';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Dates#2026';
const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const arabicDigits = (text: string) => text.replace(/[0-9]/g, (d) => ARABIC_INDIC[Number(d)]!);

test('a clerk chooses a date format and a home page, signs out and in, and lands there with dates so', async ({
  page,
  shell,
}) => {
  test.setTimeout(240_000);
  const admin = await Api.administrator(shell.apiBaseUrl);
  const office = await seedArchiveOffice(admin, {
    roleName: 'Dating Clerk',
    pages: {
      // The directory first in the menu (the initial tree's order): where `/` leads until a home is chosen.
      [PAGES.employees]: ['view'],
      [PAGES.incoming]: ['edit'],
      [PAGES.inboxDrafts]: ['add', 'edit'],
      [PAGES.inboxAdd]: ['add'],
    },
    username: 'dater',
    password: PASSWORD,
  });
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const [year, month, day] = [now.getFullYear(), pad(now.getMonth() + 1), pad(now.getDate())];
  const today = `${year}-${month}-${day}`;
  await office.clerk.ok('POST', '/correspondence/documents', {
    direction: 'in',
    subject: 'دعوة لحضور ورشة عمل',
    senderDepartmentId: office.sender,
    recipientDepartmentId: office.finance,
    codificationId: office.codification,
    documentDate: today,
    receivedDate: today,
    register: true,
  });

  const app = new AdminShell(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await app.open(shell.url);
  await app.signIn('dater', PASSWORD);
  await expect(page).toHaveURL(new RegExp(`#${PAGES.employees}$`));

  await app.goTo(shell.url, PAGES.userSettings);
  const card = page.getByTestId('display-card');
  // The specification's default, then a four-digit year, day first, and Arabic-Indic digits.
  await expect(card.getByTestId('date-format').locator('.ant-radio-wrapper-checked')).toContainText(
    'شهر/يوم/سنة',
  );
  await card.getByText('يوم/شهر/سنة، بالسنة كاملة').click();
  await card.getByText('أرقام هندية').click();
  await chooseOption(page, card.getByTestId('home-page'), 'البريد الوارد › الوارد', { type: false });
  await expect(card.getByTestId('home-page')).toContainText('البريد الوارد › الوارد');
  await app.closeToasts();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/preferences-ar.png`, fullPage: true });

  // Signed out and in again: the settings come back from the account, and `/` leads home.
  await app.signOut();
  await app.signIn('dater', PASSWORD);
  await expect(page).toHaveURL(new RegExp(`#${PAGES.incoming}$`));
  const table = page.getByTestId('incoming-list-table');
  await expect(table).toContainText(arabicDigits(`${day}/${month}/${year}`));
  await expect(table).not.toContainText(`${month}/${day}/${String(year).slice(2)}`);
  // The date range's pickers read the same format.
  const range = page.getByRole('textbox', { name: 'تاريخ التسجيل بين' });
  await expect(range.first()).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
  await expect(range.last()).toHaveValue(`${day}/${month}/${year}`);

  // English: the same format, Western digits; the settings page says so.
  await app.switchLanguage();
  await expect(table).toContainText(`${day}/${month}/${year}`);
  await app.goTo(shell.url, PAGES.userSettings);
  await expect(card.getByTestId('date-format').locator('.ant-radio-wrapper-checked')).toContainText(
    'Day/month/year',
  );
  await expect(card.getByTestId('home-page')).toContainText('Inbox › Incoming');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/preferences-en.png`, fullPage: true });

  // Back to the first page of the menu: `/` leads there again.
  await chooseOption(page, card.getByTestId('home-page'), 'The first page of the menu', { type: false });
  // Saved with the account by a request on its way: `/` leads to the first page once it has arrived.
  await expect(async () => {
    await app.goTo(shell.url, '/');
    await expect(page).toHaveURL(new RegExp(`#${PAGES.employees}$`), { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
});
