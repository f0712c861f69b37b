/**
 * The "Send by e-mail" dialog of a final letter against a fake API: the receivers come with their
 * directory address checked (one without an address unchecked), a malformed or repeated address is
 * refused inline and nothing is sent, an empty choice says so, and what is sent is the receivers checked
 * plus the typed addresses.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n } from '../../src-renderer/lib/i18n';
import { SendEmailDialog } from '../../src-renderer/features/correspondence/documents/FinalEmailSection';
import type { EmailDispatches } from '../../src-shared/api/final';
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

const RECEIVERS: EmailDispatches['receivers'] = [
  {
    id: 5,
    nameAr: 'وزارة الخارجية',
    nameEn: 'Ministry of Foreign Affairs',
    email: 'registry@mofa.example.gov',
  },
  { id: 6, nameAr: 'وزارة الصحة', nameEn: 'Ministry of Health', email: null },
];
const ANSWER: EmailDispatches = { items: [], receivers: RECEIVERS, mayManage: true, smtpReady: true };
const SEND = 'POST /correspondence/documents/7/email-dispatches';

let fake: ReturnType<typeof fakeHttp>;
function serve(routes: Routes) {
  fake = fakeHttp(routes);
  holder.fake = fake as never;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => serve({ [SEND]: () => ANSWER }));

function open() {
  const onSent = vi.fn();
  renderScreen(<SendEmailDialog docId={7} receivers={RECEIVERS} onClose={() => undefined} onSent={onSent} />);
  return onSent;
}
const sent = () => fake.calls.filter((c) => c.method === 'POST');
const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('SendEmailDialog', () => {
  it('prefills the receivers’ directory addresses and sends the checked ones with the typed ones', async () => {
    const onSent = open();
    const form = await screen.findByTestId('final-email-form');
    const first = within(form).getByTestId('final-email-receiver-check-5') as HTMLInputElement;
    const second = within(form).getByTestId('final-email-receiver-check-6') as HTMLInputElement;
    expect(first.checked).toBe(true);
    expect(second.checked).toBe(false);
    expect((screen.getByTestId('final-email-receiver-address-5') as HTMLInputElement).value).toBe(
      'registry@mofa.example.gov',
    );
    expect(screen.getByTestId('final-email-receiver-address-5').getAttribute('dir')).toBe('ltr');
    fireEvent.click(screen.getByTestId('final-email-add'));
    type('final-email-other-0', ' office@moh.example.gov ');
    fireEvent.click(screen.getByTestId('final-email-send-ok'));
    await waitFor(() => expect(onSent).toHaveBeenCalledWith(ANSWER));
    expect(sent().map((c) => c.body)).toEqual([
      {
        recipients: [
          { departmentId: 5, address: 'registry@mofa.example.gov' },
          { address: 'office@moh.example.gov' },
        ],
      },
    ]);
  });

  it('refuses a malformed or repeated address inline, and an empty choice, sending nothing', async () => {
    open();
    await screen.findByTestId('final-email-form');
    // A receiver checked without an address, and a malformed typed one.
    fireEvent.click(screen.getByTestId('final-email-receiver-check-6'));
    fireEvent.click(screen.getByTestId('final-email-add'));
    type('final-email-other-0', 'not-an-address');
    fireEvent.click(screen.getByTestId('final-email-send-ok'));
    await waitFor(() => expect(screen.getAllByText('Enter a valid e-mail address')).toHaveLength(2));
    // The typed address repeats the first receiver's (another case).
    fireEvent.click(screen.getByTestId('final-email-receiver-check-6'));
    type('final-email-other-0', 'REGISTRY@mofa.example.gov');
    fireEvent.click(screen.getByTestId('final-email-send-ok'));
    await waitFor(() =>
      expect(screen.getAllByText('This address is already in the list').length).toBeGreaterThan(0),
    );
    // Nothing chosen at all.
    fireEvent.click(screen.getByTestId('final-email-receiver-check-5'));
    type('final-email-other-0', '');
    fireEvent.click(screen.getByTestId('final-email-send-ok'));
    expect(await screen.findByTestId('final-email-problem')).toBeTruthy();
    expect(screen.getByText('Choose at least one receiver or enter an address')).toBeTruthy();
    expect(sent()).toEqual([]);
  });
});
