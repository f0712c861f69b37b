/**
 * A change of language leaves nothing worded in the old one: server answers held by react-query are
 * read again (those on screen) or forgotten (the others), except a query marked SAME_IN_EVERY_LANGUAGE;
 * a form's shown errors are worded anew (useLocalisedForm); a message shown in place, whose words cannot
 * be asked again, is no longer shown (useShownMessage). The language is switched as the header does
 * (LocaleProvider's setLocale, which saves it in main through the bridge).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import {
  LocaleProvider,
  SAME_IN_EVERY_LANGUAGE,
  rereadDataOnLanguageChange,
  useLocale,
  useShownMessage,
} from '../../src-renderer/app/locale';
import { useLocalisedForm } from '../../src-renderer/lib/forms';
import { renderScreen } from './admin-harness';

const holder = vi.hoisted(() => ({ saved: [] as unknown[] }));
vi.mock('../../src-renderer/lib/bridge', () => ({
  getBridge: () => ({
    settingsSet: async (patch: unknown) => {
      holder.saved.push(patch);
      return { ok: true, data: patch };
    },
  }),
}));

/** What a server words in the language asked for, as the audit log's action names. */
const SERVER_WORDS = { ar: 'تسجيل الدخول', en: 'Signed in' } as const;
const asked = { worded: 0, neutral: 0 };

function Screen() {
  const { t } = useTranslation();
  const { setLocale, locale } = useLocale();
  const [form] = useLocalisedForm<{ subject?: string }>();
  const [problem, setProblem] = useShownMessage();
  const worded = useQuery({
    queryKey: ['audit'],
    queryFn: async () => {
      asked.worded += 1;
      return SERVER_WORDS[i18n.language as 'ar' | 'en'];
    },
  });
  const neutral = useQuery({
    queryKey: ['two-factor-key'],
    queryFn: async () => {
      asked.neutral += 1;
      return `KEY${asked.neutral}`;
    },
    meta: SAME_IN_EVERY_LANGUAGE,
  });
  return (
    <div>
      <span data-testid="worded">{worded.data}</span>
      <span data-testid="neutral">{neutral.data}</span>
      {problem && <span data-testid="problem">{problem}</span>}
      <Button onClick={() => setProblem(t('errors.unexpected'))} data-testid="fail">
        fail
      </Button>
      <Button onClick={() => void setLocale(locale === 'ar' ? 'en' : 'ar')} data-testid="switch">
        switch
      </Button>
      <Form form={form}>
        <Form.Item name="subject" rules={[{ required: true, message: t('validation.required') }]}>
          <Input data-testid="subject" />
        </Form.Item>
        <Button htmlType="submit" data-testid="submit">
          submit
        </Button>
      </Form>
    </div>
  );
}

let client: QueryClient;
let stop: () => void;

beforeAll(async () => {
  await initI18n('ar');
  client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  stop = rereadDataOnLanguageChange(client);
});
afterAll(() => stop());

describe('a change of language', () => {
  it('rewords server answers, form errors and in-place messages, and keeps what reads the same', async () => {
    // Something read before, no longer on screen: forgotten, not kept in the old language.
    client.setQueryData(['audit', 'page', 2], SERVER_WORDS.ar);
    renderScreen(
      <QueryClientProvider client={client}>
        <LocaleProvider initial="ar">
          <Screen />
        </LocaleProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText(SERVER_WORDS.ar)).toBeTruthy();
    expect(await screen.findByText('KEY1')).toBeTruthy();
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText('هذا الحقل مطلوب')).toBeTruthy();
    fireEvent.click(screen.getByTestId('fail'));
    expect(screen.getByTestId('problem').textContent).toBe(i18n.t('errors.unexpected'));

    fireEvent.click(screen.getByTestId('switch'));
    await waitFor(() => expect(holder.saved).toEqual([{ selectedLocale: 'en' }]));
    expect(await screen.findByText(SERVER_WORDS.en)).toBeTruthy();
    expect(await screen.findByText('This field is required')).toBeTruthy();
    // The old words leave (antd lets them fade out).
    await waitFor(() => expect(screen.queryByText('هذا الحقل مطلوب')).toBeNull());
    expect(screen.queryByTestId('problem')).toBeNull();
    expect(screen.queryByText(SERVER_WORDS.ar)).toBeNull();
    // The key is not asked for again; what was off screen is gone.
    expect(screen.getByTestId('neutral').textContent).toBe('KEY1');
    expect(asked).toEqual({ worded: 2, neutral: 1 });
    expect(client.getQueryData(['audit', 'page', 2])).toBeUndefined();

    // And back: the message set in English is worded in English until the next switch.
    fireEvent.click(screen.getByTestId('fail'));
    expect(screen.getByTestId('problem').textContent).toBe('Something went wrong. Please try again');
    fireEvent.click(screen.getByTestId('switch'));
    expect(await screen.findByText(SERVER_WORDS.ar)).toBeTruthy();
    expect(await screen.findByText('هذا الحقل مطلوب')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('This field is required')).toBeNull());
    expect(screen.queryByTestId('problem')).toBeNull();
  });
});
