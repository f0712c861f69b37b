/**
 * A destruction carried out, as the certificate of destruction is made from it (src-shared/api/records.ts
 * `Disposition`), with as many documents as asked, each with a file: for the PDF making tests
 * (tests/api/pdf-make-pool.test.ts) and bench/pdf-making, which make a large certificate without seeding a
 * database with its documents.
 */
import { createHash } from 'node:crypto';
import type { Disposition } from '../../../src-shared/api/records';

export function destroyedFile(documents: number): Disposition {
  const person = (id: number, ar: string, en: string) => ({ id, nameAr: ar, nameEn: en });
  return {
    id: 1,
    file: { id: 1, code: 'ARC-2019-007', titleAr: 'ملف المراسلات الواردة', titleEn: 'Incoming letters' },
    action: 'destroy',
    state: 'done',
    legalReference: 'نظام الوثائق والمحفوظات، المادة 12',
    note: null,
    proposedBy: person(2, 'سارة أحمد', 'Sara Ahmed'),
    proposedAt: '2026-03-01T09:00:00.000Z',
    approvedBy: person(3, 'خالد علي', 'Khaled Ali'),
    approvedAt: '2026-03-02T10:00:00.000Z',
    executedBy: person(2, 'سارة أحمد', 'Sara Ahmed'),
    executedAt: '2026-03-03T11:00:00.000Z',
    record: Array.from({ length: documents }, (_, i) => ({
      docNumber: `IN-2019-${String(i + 1).padStart(5, '0')}`,
      subject: i % 2 ? `Letter ${i + 1} about the annual budget` : `خطاب رقم ${i + 1} بشأن الميزانية السنوية`,
      direction: 'incoming',
      documentDate: '2019-05-01',
      registeredAt: '2019-05-01T08:00:00.000Z',
      files: [
        {
          fileName: i % 3 ? 'letter.pdf' : 'خطاب.pdf',
          sha256: createHash('sha256').update(`document ${i}`).digest('hex'),
          size: 10_000 + i,
        },
      ],
    })),
    outputSha256: null,
    job: null,
  };
}
