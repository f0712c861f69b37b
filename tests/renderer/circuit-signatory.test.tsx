/**
 * The circuit editor offers as signatory only those who hold signing authority for the document's entity
 * (issue 23, item 3), against a fake API whose people search answers everyone: the signatory step's
 * picker lists the holders alone, with why they hold it; a signatory who does not (a step moved last) is
 * marked, in both languages, and the circuit cannot be sent until one who does is chosen; what is sent
 * names the chosen signatory.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Document } from '../../src-shared/api/correspondence';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { CircuitDialog } from '../../src-renderer/features/correspondence/documents/CircuitDialog';
import { fakeHttp, renderScreen } from './admin-harness';

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

const dept = (id: number, nameAr: string, nameEn: string) => ({ id, nameAr, nameEn });
const person = (
  userId: number,
  nameAr: string,
  nameEn: string,
  department = dept(2, 'الحسابات', 'Accounts'),
) => ({
  userId,
  nameAr,
  nameEn,
  department,
  manager: false,
});
const UNIT_MANAGER = person(11, 'سعد الحربي', 'Saad Alharbi');
const OUTSIDER = person(12, 'ريم الدوسري', 'Reem Aldosari', dept(3, 'الهيئة', 'The Agency'));
const MINISTER = person(13, 'فيصل القحطاني', 'Faisal Alqahtani', dept(1, 'الوزارة', 'The Ministry'));
const DELEGATE = person(14, 'منى الشهري', 'Mona Alshehri');
const MINISTRY = dept(1, 'الوزارة', 'The Ministry');

const DOC = { id: 5, version: 3 } as Document;

let fake: ReturnType<typeof fakeHttp>;
let sent: unknown;
beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  sent = undefined;
  fake = fakeHttp({
    'GET /correspondence/documents/5/circuit/proposal': () => ({
      source: 'managers',
      steps: [
        { kind: 'opinion', members: [UNIT_MANAGER] },
        { kind: 'sign', members: [MINISTER] },
      ],
    }),
    'GET /correspondence/documents/5/signatories': () => ({
      entity: MINISTRY,
      signatories: [
        { ...MINISTER, authority: 'manager' },
        { ...DELEGATE, authority: 'granted' },
      ],
    }),
    // The people search answers everyone: the signatory step must not offer them all.
    'GET /correspondence/approvers': () => [UNIT_MANAGER, OUTSIDER, MINISTER, DELEGATE],
    'POST /correspondence/documents/5/submit': (body) => {
      sent = body;
      return { ...DOC, state: 'approving' };
    },
  });
  holder.fake = fake as never;
});

const sendButton = () => screen.getByTestId('circuit-send').closest('button')!;
const stepOf = (n: number) => screen.getAllByTestId('circuit-step')[n]!;

describe('the circuit editor’s signatory', () => {
  it('is chosen among the holders of signing authority only, and sent as chosen', async () => {
    renderScreen(<CircuitDialog doc={DOC} onClose={() => undefined} onSubmitted={() => undefined} />);
    await waitFor(() => expect(screen.getAllByTestId('circuit-step')).toHaveLength(2));
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    expect(within(stepOf(1)).getByTestId('circuit-signatory-hint').textContent).toContain('The Ministry');

    // Remove the proposed signatory: the step offers the holders, not everyone.
    const tag = within(stepOf(1)).getByTestId('circuit-person');
    fireEvent.click(tag.querySelector('.ant-tag-close-icon')!);
    await waitFor(() => expect(sendButton().disabled).toBe(true));
    fireEvent.mouseDown(within(stepOf(1)).getByRole('combobox'));
    const options = await screen.findAllByTestId('signatory-option');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining('Faisal Alqahtani'),
      expect.stringContaining('Mona Alshehri'),
    ]);
    expect(options[0]!.textContent).toContain('Entity manager');
    expect(options[1]!.textContent).toContain('Granted');
    expect(screen.queryByText('Reem Aldosari')).toBeNull();
    fireEvent.click(options[1]!);
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    fireEvent.click(sendButton());
    await waitFor(() => expect(sent).toEqual({ steps: [{ userIds: [11] }, { userIds: [14] }], version: 3 }));
  });

  it('marks a signatory who does not hold it, in both languages, and does not send', async () => {
    renderScreen(<CircuitDialog doc={DOC} onClose={() => undefined} onSubmitted={() => undefined} />);
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    // The unit manager's step moved last: the unit manager would sign, and may not.
    fireEvent.click(within(stepOf(0)).getByRole('button', { name: 'Move the step down' }));
    const refused = await within(stepOf(1)).findByTestId('circuit-signatory-refused');
    expect(refused.textContent).toBe(
      'Saad Alharbi does not hold signing authority for The Ministry: choose the signatory among those who do.',
    );
    expect(within(stepOf(1)).getByTestId('circuit-person-refused').textContent).toContain('Saad Alharbi');
    expect(sendButton().disabled).toBe(true);
    fireEvent.click(sendButton());
    await i18n.changeLanguage('ar');
    expect((await within(stepOf(1)).findByTestId('circuit-signatory-refused')).textContent).toBe(
      'لا يملك سعد الحربي صلاحية التوقيع عن الوزارة: اختر صاحب التوقيع ممن يملكونها.',
    );
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
