/**
 * The boxes' date range names the date the list shows (issue 23, item 2): on every box screen, in Arabic
 * and in English, the label beside the range picker names the box's own date (BOX_DATE) — the date the
 * server filters the range on — and the list shows that date in a column under the same name; the range
 * is sent as the edges of the user's own days (the last 30 days by default, none for the boxes of work
 * still to do).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ComponentType } from 'react';
import dayjs from 'dayjs';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { BOX_DATE, OPEN_ENDED_BOXES, type Box } from '../../src-shared/api/correspondence';
import { fakeHttp, renderScreen } from './admin-harness';
import { Component as Incoming } from '../../src-renderer/features/correspondence/inbox/IncomingListPage';
import { Component as FollowUps } from '../../src-renderer/features/correspondence/inbox/FollowUpsListPage';
import { Component as Tasks } from '../../src-renderer/features/correspondence/inbox/IncomingTasksListPage';
import { Component as InboxDrafts } from '../../src-renderer/features/correspondence/inbox/InboxDraftsListPage';
import { Component as Outgoing } from '../../src-renderer/features/correspondence/outbox/OutgoingListPage';
import { Component as OutboxAwaiting } from '../../src-renderer/features/correspondence/outbox/OutboxAwaitingApprovalListPage';
import { Component as OutboxRequiring } from '../../src-renderer/features/correspondence/outbox/OutboxRequiringApprovalListPage';
import { Component as ApprovedMemos } from '../../src-renderer/features/correspondence/memos/ApprovedMemosListPage';
import { Component as MemoDrafts } from '../../src-renderer/features/correspondence/memos/MemoDraftsListPage';
import { Component as MemosRequiring } from '../../src-renderer/features/correspondence/memos/MemosRequiringApprovalListPage';

const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
}));
vi.mock('../../src-renderer/lib/http', () => ({
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
  errorText: () => 'error',
  ApiError: class extends Error {},
}));

/** A row of a box, dated today. */
const row = (box: Box) => ({
  key: `d1-${box}`,
  documentId: 1,
  direction: 'in',
  state: 'registered',
  docNumber: 'IN-2026-000001',
  subject: 'طلب اعتماد الميزانية',
  senderDocumentNumber: null,
  sender: null,
  documentDate: null,
  receivedDate: '2026-01-01',
  priority: null,
  securityLevel: null,
  registeredAt: new Date().toISOString(),
  createdAt: new Date().toISOString(),
  boxDate: new Date().toISOString(),
  distribution: null,
  recipients: [],
  addressees: [],
  distributed: false,
  completed: false,
  task: null,
  dueDate: null,
  overdue: false,
  followReason: null,
  onBehalfOf: null,
});

const SCREENS: [Box, string, ComponentType][] = [
  ['incoming', 'incoming-list', Incoming],
  ['follow-ups', 'follow-ups-list', FollowUps],
  ['incoming-tasks', 'tasks-list', Tasks],
  ['inbox-drafts', 'drafts-list', InboxDrafts],
  ['outgoing', 'outgoing-list', Outgoing],
  ['awaiting-approval', 'awaiting-list', OutboxAwaiting],
  ['requiring-approval', 'requiring-list', OutboxRequiring],
  ['approved-memos', 'approved-memos-list', ApprovedMemos],
  ['memo-drafts', 'drafts-list', MemoDrafts],
  ['memos-requiring-approval', 'requiring-list', MemosRequiring],
];

let fake: ReturnType<typeof fakeHttp>;
beforeAll(async () => {
  await initI18n('en');
  const routes: Record<string, () => unknown> = {
    'GET /correspondence/boxes/counts': () => ({
      outboxRequiringApproval: 0,
      memosRequiringApproval: 0,
      outboxRequiringChanges: 0,
      memosRequiringChanges: 0,
    }),
  };
  for (const [box] of SCREENS)
    routes[`GET /correspondence/boxes/${box}`] = () => ({
      items: [row(box)],
      total: 1,
      page: 1,
      pageSize: 20,
    });
  fake = fakeHttp(routes);
  holder.fake = fake as never;
});

describe('the date range of a box', () => {
  for (const lang of ['ar', 'en'] as const)
    for (const [box, testId, Screen] of SCREENS)
      it(`names the date its list shows (${box}, ${lang})`, async () => {
        await i18n.changeLanguage(lang);
        fake.calls.length = 0;
        renderScreen(
          <MemoryRouter>
            <Screen />
          </MemoryRouter>,
        );
        const kind = BOX_DATE[box];
        const column = i18n.t(`correspondence:boxDate.${kind}`);
        const label = await screen.findByTestId(`${testId}-range-label`);
        expect(label.textContent).toBe(i18n.t(`correspondence:dateRange.${kind}.between`));
        // The label begins with the very name of the date column the list shows.
        expect(label.textContent!.startsWith(column)).toBe(true);
        await waitFor(() =>
          expect(screen.getAllByRole('columnheader').map((th) => th.textContent?.trim())).toContain(column),
        );
        // The range sent: the edges of the user's own days, the last 30 by default; none for what is still
        // to do.
        const asked = fake.calls.find((c) => c.path === `/correspondence/boxes/${box}`);
        const query = asked?.query as Record<string, unknown>;
        const sent = OPEN_ENDED_BOXES.has(box)
          ? [undefined, undefined]
          : [dayjs().subtract(30, 'day').startOf('day').toISOString(), dayjs().endOf('day').toISOString()];
        expect([query.fromDate, query.toDate]).toEqual(sent);
      });
});
