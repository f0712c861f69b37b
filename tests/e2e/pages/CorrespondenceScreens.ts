/**
 * Page objects of the correspondence screens: the add-incoming form, the document detail (distribution,
 * tasks, timeline) and the calendar.
 */
import { expect, type Page } from '@playwright/test';
import { chooseOption } from '../support/select';

/** Picks an option of an antd Select / TreeSelect by typing and clicking its visible title. */
const pick = (page: Page, testId: string, text: string) => chooseOption(page, page.getByTestId(testId), text);

/** Types a date (MM/DD/YY) into an antd DatePicker. */
async function typeDate(page: Page, testId: string, value: string) {
  const input = page
    .getByTestId(testId)
    .locator('input')
    .first()
    .or(page.locator(`input[data-testid="${testId}"]`));
  await input.first().click();
  await input.first().fill(value);
  await page.keyboard.press('Enter');
}

export class CorrespondenceAddScreen {
  constructor(readonly page: Page) {}

  readonly form = () => this.page.getByTestId('incoming-form');

  /** Fills every field a registration needs, plus a summary and the attachment. */
  async fill(letter: {
    codification: string;
    subject: string;
    summary: string;
    sender: string;
    senderNumber: string;
    recipient: string;
    documentDate: string;
    pdf: { name: string; buffer: Buffer };
  }) {
    await pick(this.page, 'field-codification', letter.codification);
    await typeDate(this.page, 'field-document-date', letter.documentDate);
    await this.page.getByTestId('field-subject').fill(letter.subject);
    await this.page.getByTestId('field-summary').fill(letter.summary);
    await pick(this.page, 'field-sender', letter.sender);
    await this.page.getByTestId('field-sender-number').fill(letter.senderNumber);
    await pick(this.page, 'field-recipient', letter.recipient);
    await this.form()
      .locator('input[type=file]')
      .setInputFiles({ name: letter.pdf.name, mimeType: 'application/pdf', buffer: letter.pdf.buffer });
    await expect(this.form().getByTestId('attachment-row')).toContainText(letter.pdf.name);
  }

  /** Registers and answers the number the server gave. */
  async register(): Promise<string> {
    await this.page.getByTestId('register').click();
    const number = this.page.getByTestId('registered-number').locator('bdi');
    await expect(number).toBeVisible();
    return (await number.innerText()).trim();
  }
}

export class CorrespondenceDocumentScreen {
  constructor(readonly page: Page) {}

  readonly screen = () => this.page.getByTestId('document-detail');
  readonly timeline = () => this.page.getByTestId('timeline');
  readonly distribution = () => this.page.getByTestId('distribution-panel');
  readonly tasks = () => this.page.getByTestId('tasks-panel');

  /** Distributes to departments: each for action (forAction) or for information (forKnowledge), with notes. */
  async distribute(rows: { department: string; type: 'forAction' | 'forKnowledge'; notes: string }[]) {
    await this.page.getByTestId('distribute').click();
    for (const [index, row] of rows.entries()) {
      if (index > 0) await this.page.getByTestId('distribute-add-row').click();
      await pick(this.page, `distribute-department-${index}`, row.department);
      // antd draws the radio button over a visually hidden input: click the button people see.
      const type = this.page.getByTestId(`distribute-type-${index}`);
      await type
        .locator('label.ant-radio-button-wrapper', { has: this.page.locator(`input[value="${row.type}"]`) })
        .click();
      await expect(type.locator(`input[value="${row.type}"]`)).toBeChecked();
      await this.page.getByTestId(`distribute-notes-${index}`).fill(row.notes);
    }
    await this.page.getByTestId('distribute-save').click();
    await expect(this.page.getByTestId('distribute-form')).toBeHidden();
  }

  /** Assigns a task to an employee (under the only distribution the manager may task). */
  async assignTask(employee: string, notes: string) {
    await this.page.getByTestId('task-assign').click();
    // A manager is offered only the distributions of the departments they lead: here one, already chosen.
    await expect(this.page.getByTestId('task-form')).toBeVisible();
    await expect(this.page.getByTestId('task-distribution')).toContainText(' — ');
    await pick(this.page, 'task-tasker', employee);
    await this.page.getByTestId('task-notes').fill(notes);
    await this.page.getByTestId('task-save').click();
    await expect(this.page.getByTestId('task-form')).toBeHidden();
  }
}
