/**
 * The due state as the boxes and the document page show it (issue 28): each state's colour comes with an
 * icon and words (overdue by N working days, due soon, on time, done), in both languages, so it reads
 * without colour; no tag without a due date; the Hijri date beside the Gregorian one (Umm al-Qura).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { DueCell, DueStateTag } from '../../src-renderer/features/correspondence/documents/DueTag';
import { dueTagSpec, hijriDate } from '../../src-renderer/features/correspondence/documents/dueState';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);

describe('the due tag', () => {
  it.each([
    ['overdue', 3, 'red', 'overdue', { count: 3 }],
    ['overdue', null, 'red', 'overdue', { count: 1 }],
    ['dueSoon', null, 'orange', 'soon', {}],
    ['onTime', null, 'blue', 'onTime', {}],
    ['done', null, 'green', 'done', {}],
  ] as const)('%s (%s days) is %s with the %s icon', (state, days, color, icon, values) => {
    expect(dueTagSpec(state, days)).toMatchObject({ color, icon, values });
  });

  it('says nothing without a due date', () => {
    expect(dueTagSpec('none', null)).toBeNull();
    const { container } = render(<DueCell dueDate={null} state="none" overdueDays={null} />);
    expect(container.textContent).toBe('');
  });

  it('says the state in words and with an icon, in English and Arabic', async () => {
    await i18n.changeLanguage('en');
    render(<DueStateTag state="overdue" overdueDays={3} />);
    const tag = screen.getByTestId('due-overdue');
    expect(tag.textContent).toBe('Overdue by 3 working days');
    expect(tag.querySelector('.anticon')).not.toBeNull();
    cleanup();
    await i18n.changeLanguage('ar');
    render(<DueStateTag state="dueSoon" overdueDays={null} />);
    expect(screen.getByTestId('due-dueSoon').textContent).toBe('يستحق قريباً');
    cleanup();
    render(<DueStateTag state="overdue" overdueDays={1} />);
    expect(screen.getByTestId('due-overdue').textContent).toBe('متأخر يوم عمل واحد');
  });

  it('writes the Hijri date of a day (Umm al-Qura)', () => {
    expect(hijriDate('2026-03-20', 'en')).toContain('Shawwal 1, 1447');
    expect(hijriDate('2026-03-20', 'ar')).toContain('شوال');
    expect(hijriDate('not a day', 'en')).toBe('');
  });
});
