/**
 * Records management in the client (issue 31): the document form's File field searches the open files on
 * the server and names them by code and title in the interface language; an older local draft's file code
 * shows until a file is chosen, which replaces it; the form's fields send the file's id, else the code.
 * The disposition screen tells the proposer why they cannot approve their own proposal and offers another
 * records manager the approval; it follows a disposition being carried out (its job's phase and progress,
 * read again until it is done, then the certificate to download), and offers to continue one whose job
 * stopped, saying why.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form } from 'antd';
import { initI18n } from '../../src-renderer/lib/i18n';
import { FileSelect } from '../../src-renderer/features/correspondence/documents/FileSelect';
import { toDocumentFields } from '../../src-renderer/features/correspondence/documents/documentFields';
import { Component as DispositionPage } from '../../src-renderer/features/records/DispositionPage';
import { fakeHttp, renderScreen } from './admin-harness';
import type * as HttpModule from '../../src-renderer/lib/http';

const holder = vi.hoisted(() => ({
  fake: null as unknown as {
    http: Record<string, unknown>;
    calls: { method: string; path: string; query?: unknown }[];
  },
}));
vi.mock('../../src-renderer/lib/http', async (original) => ({
  ...(await original<typeof HttpModule>()),
  http: {
    get: (...a: unknown[]) => (holder.fake.http.get as (...x: unknown[]) => unknown)(...a),
    post: (...a: unknown[]) => (holder.fake.http.post as (...x: unknown[]) => unknown)(...a),
    put: (...a: unknown[]) => (holder.fake.http.put as (...x: unknown[]) => unknown)(...a),
    patch: (...a: unknown[]) => (holder.fake.http.patch as (...x: unknown[]) => unknown)(...a),
    delete: (...a: unknown[]) => (holder.fake.http.delete as (...x: unknown[]) => unknown)(...a),
  },
}));
vi.mock('../../src-renderer/app/permissions', () => ({
  useCanOn: () => true,
  useCurrentPage: () => null,
}));
vi.mock('../../src-renderer/app/session', () => ({ useSession: () => ({ user: { id: 7 } }) }));

const FILES = [
  { id: 1, code: 'FIN-01', titleAr: 'ملف الميزانية', titleEn: 'Budget' },
  { id: 2, code: 'HR-02', titleAr: 'ملف التوظيف', titleEn: 'Recruitment' },
];

beforeAll(async () => {
  await initI18n('en');
});

/** Opens an antd select and answers its dropdown. */
function openSelect(testId: string) {
  const select = screen.getByTestId(testId);
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
  return select;
}

describe('the File field', () => {
  let form: ReturnType<typeof Form.useForm>[0] | null = null;
  function Harness({ grouping }: { grouping?: string }) {
    const [f] = Form.useForm();
    form = f;
    return (
      <Form form={f} initialValues={{ grouping }}>
        <Form.Item name="fileId">
          <FileSelect testId="field-file" />
        </Form.Item>
        <Form.Item name="grouping" hidden>
          <input />
        </Form.Item>
      </Form>
    );
  }
  beforeEach(() => {
    holder.fake = fakeHttp({
      'GET /records/files/open': (_b, query) => {
        const q = ((query as { q?: string } | undefined)?.q ?? '').toLowerCase();
        return FILES.filter(
          (f) => !q || f.code.toLowerCase().includes(q) || f.titleEn.toLowerCase().includes(q),
        );
      },
    });
  });

  it('searches the open files on the server and chooses one by its id', async () => {
    renderScreen(<Harness />);
    const select = openSelect('field-file');
    expect(await screen.findByText('FIN-01 — Budget')).toBeTruthy();
    fireEvent.change(within(select).getByRole('combobox'), { target: { value: 'recr' } });
    await waitFor(() =>
      expect(holder.fake.calls.some((c) => (c.query as { q?: string } | undefined)?.q === 'recr')).toBe(true),
    );
    await waitFor(() => expect(screen.queryByText('FIN-01 — Budget')).toBeNull());
    fireEvent.click(await screen.findByText('HR-02 — Recruitment'));
    await waitFor(() => expect(form!.getFieldValue('fileId')).toBe(2));
  });

  it('shows an older draft’s file code until a file is chosen, which replaces it', async () => {
    renderScreen(<Harness grouping="OLD-7" />);
    expect(await screen.findByText('File OLD-7 (named by its code)')).toBeTruthy();
    openSelect('field-file');
    fireEvent.click(await screen.findByText('FIN-01 — Budget'));
    await waitFor(() => expect(form!.getFieldValue('fileId')).toBe(1));
    expect(form!.getFieldValue('grouping')).toBeUndefined();
  });

  it('sends the file’s id, else the older code for the server to map, else no file', () => {
    expect(toDocumentFields({ subject: 'x', fileId: 3, grouping: 'OLD' }, 'out')).toMatchObject({
      fileId: 3,
    });
    const byCode = toDocumentFields({ subject: 'x', grouping: ' OLD-7 ' }, 'in');
    expect(byCode).toMatchObject({ grouping: 'OLD-7' });
    expect(byCode).not.toHaveProperty('fileId');
    expect(toDocumentFields({ subject: 'x' }, 'memo')).toMatchObject({ fileId: null });
  });
});

describe('the disposition screen', () => {
  const person = (id: number, nameEn: string) => ({ id, nameAr: nameEn, nameEn });
  const disposition = (id: number, code: string, proposer: number) => ({
    id,
    file: { id, code, titleAr: `ملف ${code}`, titleEn: `File ${code}` },
    action: 'destroy',
    state: 'proposed',
    legalReference: 'Records regulation, article 12',
    note: null,
    proposedBy: person(proposer, proposer === 7 ? 'Me' : 'Someone else'),
    proposedAt: '2026-03-01T09:00:00.000Z',
    approvedBy: null,
    approvedAt: null,
    executedBy: null,
    executedAt: null,
    record: [],
    outputSha256: null,
    job: null,
  });

  it('tells the proposer why they cannot approve, and lets another records manager approve', async () => {
    holder.fake = fakeHttp({
      'GET /records/disposition/due': () => [],
      'GET /records/dispositions': () => [disposition(1, 'MINE-1', 7), disposition(2, 'THEIRS-2', 9)],
      'POST /records/dispositions/2/approve': () => ({ ...disposition(2, 'THEIRS-2', 9), state: 'approved' }),
    });
    renderScreen(<DispositionPage />);
    expect((await screen.findByTestId('own-proposal-MINE-1')).textContent).toBe(
      'You proposed it: another records manager must approve it',
    );
    expect(screen.queryByTestId('approve-MINE-1')).toBeNull();
    fireEvent.click(screen.getByTestId('approve-THEIRS-2'));
    await waitFor(() =>
      expect(
        holder.fake.calls.some((c) => c.method === 'POST' && c.path === '/records/dispositions/2/approve'),
      ).toBe(true),
    );
    expect(screen.getByText('No file is due for disposition')).toBeTruthy();
  });

  it('follows a disposition being carried out until it is done, then offers its certificate', async () => {
    const base = { ...disposition(3, 'BIG-3', 9), approvedBy: person(8, 'Approver') };
    let answer: unknown = {
      ...base,
      state: 'executing',
      executedBy: person(7, 'Me'),
      job: {
        id: 41,
        state: 'running',
        phase: 'destroying',
        done: 300,
        total: 1000,
        percent: 12,
        error: null,
      },
    };
    holder.fake = fakeHttp({
      'GET /records/disposition/due': () => [],
      'GET /records/dispositions': () => [answer],
      'GET /records/dispositions/3/progress': () => {
        const { id, state, job } = answer as { id: number; state: string; job: unknown };
        return { id, state, job: job ?? null };
      },
    });
    renderScreen(<DispositionPage />);
    const job = await screen.findByTestId('disposition-job-BIG-3');
    expect(job.textContent).toContain('Destroying documents: 300 of 1,000');
    expect(job.textContent).toContain('12%');
    expect(screen.getByTestId('disposition-state-BIG-3').textContent).toBe('Being carried out');
    // Not cancelled, nor carried out twice, while its job runs.
    expect(screen.queryByTestId('cancel-BIG-3')).toBeNull();
    expect(screen.queryByTestId('execute-BIG-3')).toBeNull();
    expect(screen.queryByTestId('download-BIG-3')).toBeNull();
    answer = { ...base, state: 'done', executedBy: person(7, 'Me'), outputSha256: 'a'.repeat(64) };
    // Its progress is read every second; once done, the list is read again.
    await waitFor(() => expect(screen.getByTestId('download-BIG-3').textContent).toBe('Certificate'), {
      timeout: 5000,
    });
    expect(screen.getByTestId('disposition-state-BIG-3').textContent).toBe('Done');
    expect(screen.queryByTestId('disposition-job-BIG-3')).toBeNull();
    const progressReads = holder.fake.calls.filter((c) => c.path === '/records/dispositions/3/progress');
    expect(progressReads.length).toBeGreaterThan(0);
  });

  it('follows a second job to its end after the first was stopped by a hold', async () => {
    const base = { ...disposition(5, 'HELD-5', 9), approvedBy: person(8, 'Approver') };
    const job = (id: number, state: string, error: string | null = null) => ({
      id,
      state,
      phase: state === 'running' ? 'destroying' : 'queued',
      done: 0,
      total: 4,
      percent: 0,
      error,
    });
    const held = 'A legal hold is in force';
    let listed: unknown = { ...base, state: 'executing', job: job(41, 'running') };
    let progress: unknown = { id: 5, state: 'approved', job: job(41, 'failed', held) };
    holder.fake = fakeHttp({
      'GET /records/disposition/due': () => [],
      'GET /records/dispositions': () => [listed],
      'GET /records/dispositions/5/progress': () => progress,
      'POST /records/dispositions/5/execute': () => {
        listed = { ...base, state: 'executing', job: job(42, 'queued') };
        progress = { id: 5, state: 'executing', job: job(42, 'running') };
        return listed;
      },
    });
    renderScreen(<DispositionPage />);
    // The first job's end (stopped) reads the list again: approved, why it stopped, carried out again.
    listed = { ...base, state: 'approved', job: job(41, 'failed', held) };
    expect((await screen.findByTestId('disposition-error-HELD-5')).textContent).toBe(held);
    fireEvent.click(screen.getByTestId('execute-HELD-5'));
    fireEvent.click(await screen.findByTestId('execute-confirm'));
    // The second job is followed, the first one's answer not taken for its end.
    await waitFor(() =>
      expect(screen.getByTestId('disposition-job-HELD-5').textContent).toContain(
        'Destroying documents: 0 of 4',
      ),
    );
    listed = { ...base, state: 'done', outputSha256: 'b'.repeat(64) };
    progress = { id: 5, state: 'done', job: null };
    await waitFor(() => expect(screen.getByTestId('download-HELD-5')).toBeTruthy(), { timeout: 5000 });
  });

  it('says why a destruction stopped midway and offers to continue it', async () => {
    const stopped = {
      ...disposition(4, 'HALF-4', 9),
      state: 'executing',
      job: {
        id: 42,
        state: 'failed',
        phase: 'removing',
        done: 0,
        total: 20,
        percent: 85,
        error: 'Carrying out the disposition stopped before it finished',
      },
    };
    holder.fake = fakeHttp({
      'GET /records/disposition/due': () => [],
      'GET /records/dispositions': () => [stopped],
      'POST /records/dispositions/4/execute': () => ({
        ...stopped,
        job: { ...stopped.job, id: 43, state: 'queued', phase: 'queued', error: null },
      }),
    });
    renderScreen(<DispositionPage />);
    expect((await screen.findByTestId('disposition-error-HALF-4')).textContent).toBe(
      'Carrying out the disposition stopped before it finished',
    );
    expect(screen.queryByTestId('cancel-HALF-4')).toBeNull();
    fireEvent.click(screen.getByTestId('continue-HALF-4'));
    await waitFor(() =>
      expect(
        holder.fake.calls.some((c) => c.method === 'POST' && c.path === '/records/dispositions/4/execute'),
      ).toBe(true),
    );
  });
});
