/**
 * The world of the final-letter tests and benchmark (issue 27): an entity with its minister (who signs),
 * a unit with an author, an archive office with its clerk, an external receiver, a department for memos,
 * codifications and two security levels; and an outgoing letter (or memo) written, attached, submitted
 * and approved by the minister, whose final PDF the background worker then makes. Needs a harness started
 * with `JOBS_WORKER: '1'` and a DATA_DIR of its own (the secrets key lives there).
 */
import { letterPdf } from '../../support/letter-pdf';

export { letterPdf };
import { actor, department, OUTBOX_AND_MEMOS, type Actor } from './correspondence';
import { multipart } from './files';
import { call, makeRole, type Harness } from './harness';

export interface FinalWorld {
  admin: Actor;
  author: Actor;
  minister: Actor;
  clerk: Actor;
  receiver: number;
  deptB: number;
  codOut: number;
  codMemo: number;
  normal: number;
  secret: number;
}

/** A final PDF's record as GET …/final answers it. */
export interface Final {
  state: string;
  signed: boolean;
  sha256: string | null;
  pages: number | null;
  verifyUrl: string | null;
  error: string | null;
  cancelled: { reason: string } | null;
  mayManage: boolean;
  certificate: { subject: string } | null;
}

const must = (ok: boolean, what: string, detail: unknown) => {
  if (!ok) throw new Error(`${what}: ${JSON.stringify(detail)}`);
};

export const documentPath = (id: number) => `/correspondence/documents/${id}`;

export async function finalWorld(h: Harness): Promise<FinalWorld> {
  const role = await makeRole(h, OUTBOX_AND_MEMOS as unknown as Record<string, ('view' | 'add')[]>);
  const admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const entity = await department(h, 'وزارة المالية', { archiveOfficeId: archive });
  await h.query(
    `update departments set is_entity = true, name_en = 'Ministry of Finance' where id = ${entity}`,
  );
  const unit = await department(h, 'الحسابات', { archiveOfficeId: archive });
  const deptB = await department(h, 'الموارد البشرية', { archiveOfficeId: archive });
  await h.query(`update departments set parent_id = ${entity} where id in (${unit}, ${deptB})`);
  const receiver = await department(h, 'وزارة الخارجية', { type: 'external' });
  const author = await actor(h, role, unit);
  const minister = await actor(h, role, entity);
  const clerk = await actor(h, role, archive);
  await h.query(`update departments set manager_employee_id = ${minister.employeeId} where id = ${entity}`);
  const make = async (list: string, body: Record<string, unknown>) => {
    const res = await call(h, {
      method: 'POST',
      url: `/correspondence/settings/${list}`,
      token: admin.token,
      body,
    });
    must(res.status === 201, list, res.json);
    return res.json.data.id as number;
  };
  return {
    admin,
    author,
    minister,
    clerk,
    receiver,
    deptB,
    codOut: await make('codifications', {
      nameAr: 'صادر',
      nameEn: 'Outgoing',
      prefix: 'OUTF',
      direction: 'out',
    }),
    codMemo: await make('codifications', {
      nameAr: 'مذكرة',
      nameEn: 'Memo',
      prefix: 'MEMF',
      direction: 'memo',
    }),
    normal: await make('security-levels', { nameAr: 'عادي', nameEn: 'Normal', level: 1 }),
    secret: await make('security-levels', { nameAr: 'سري', nameEn: 'Secret', level: 3 }),
  };
}

/**
 * An outgoing letter (or memo) written and attached by the author and submitted to the minister, ready
 * for the signature; `approve()` signs it (the final PDF's job is queued with the approval).
 */
export async function submittedLetter(
  h: Harness,
  w: FinalWorld,
  options: { memo?: boolean; securityLevelId?: number; pdf?: Buffer | null } = {},
): Promise<{ id: number; original: Buffer | null; approve: () => Promise<void> }> {
  const post = (who: Actor, url: string, body?: unknown) =>
    call(h, { method: 'POST', url, token: who.token, ...(body !== undefined ? { body } : {}) });
  const created = await post(w.author, '/correspondence/documents', {
    direction: options.memo ? 'memo' : 'out',
    subject: 'الرد على طلب الميزانية',
    codificationId: options.memo ? w.codMemo : w.codOut,
    documentDate: '2026-11-01',
    recipientIds: [options.memo ? w.deptB : w.receiver],
    securityLevelId: options.securityLevelId ?? w.normal,
  });
  must(created.status === 201, 'creating a letter', created.json);
  const id = created.json.data.id as number;
  const original = options.pdf === null ? null : (options.pdf ?? (await letterPdf()));
  if (original) {
    const file = multipart(original, 'الخطاب.pdf', 'application/pdf');
    const attached = await h.app.inject({
      method: 'POST',
      url: `${documentPath(id)}/attachments`,
      headers: { ...file.headers, authorization: `Bearer ${w.author.token}` },
      payload: file.payload,
    });
    must(attached.statusCode === 201, 'attaching the letter', attached.body);
  }
  const version = async () =>
    (await call(h, { method: 'GET', url: documentPath(id), token: w.author.token })).json.data
      .version as number;
  const submitted = await post(w.author, `${documentPath(id)}/submit`, {
    steps: [{ userIds: [w.minister.userId] }],
    version: await version(),
  });
  must(submitted.status === 200, 'submitting', submitted.json);
  const approve = async () => {
    const signed = await post(w.minister, `${documentPath(id)}/approval`, {
      action: 'approve',
      version: await version(),
    });
    must(signed.status === 200 && signed.json.data.state === 'approved', 'approving', signed.json);
  };
  return { id, original, approve };
}

/** An approved letter (see submittedLetter). */
export async function approvedLetter(
  h: Harness,
  w: FinalWorld,
  options: Parameters<typeof submittedLetter>[2] = {},
): Promise<{ id: number; original: Buffer | null }> {
  const { id, original, approve } = await submittedLetter(h, w, options);
  await approve();
  return { id, original };
}

/** The final PDF's record once the worker is done with it (made or failed); a minute at most. */
export async function madeFinal(h: Harness, who: Actor, id: number): Promise<Final> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call(h, { method: 'GET', url: `${documentPath(id)}/final`, token: who.token });
    must(res.status === 200, 'reading the final PDF', res.json);
    const f = res.json.data as Final;
    if (f.state !== 'pending') return f;
    if (Date.now() > deadline) throw new Error('the final PDF was not made within a minute');
    await new Promise((r) => setTimeout(r, 100));
  }
}
