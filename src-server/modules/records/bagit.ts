/**
 * The transfer package of a file (docs/records.md): a BagIt bag (RFC 8493, version 1.0) as a .tar.gz —
 * `bagit.txt`, `bag-info.txt`, `manifest-sha256.txt`, `tagmanifest-sha256.txt`, and under `data/` every
 * attachment of every document (one folder per document) with `metadata.json` and `metadata.xml`, the
 * latter valid against docs/schemas/sijill-file.xsd. Built in a temporary folder, packed with `tar`.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import * as tar from 'tar';
import type { DisposedDocument, Disposition, RecordFile } from '../../../src-shared/api/records';
import type { FileStore } from '../../storage/files';

/** The XML namespace of metadata.xml (docs/schemas/sijill-file.xsd). */
export const FILE_XML_NAMESPACE = 'urn:sijill:records:file:1';

export interface BagDocument {
  id: number;
  doc_number: string | null;
  subject: string;
  direction: string;
  document_date: string | null;
  registered_at: string | null;
  record: DisposedDocument;
}

/** A path segment safe in a bag on every system: letters and digits of any script, `.`, `-`, `_`. */
const segment = (text: string) =>
  text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/^[._]+/, '')
    .slice(0, 120) || 'file';

const xml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Builds the bag and answers the .tar.gz bytes; `onDocument` is awaited after each document's files are in. */
export async function buildBag(
  files: FileStore,
  input: { file: RecordFile; documents: BagDocument[]; disposition: Disposition; baggedOn: string },
  onDocument?: (done: number) => Promise<void>,
): Promise<Buffer> {
  const root = await mkdtemp(join(tmpdir(), 'sijill-bag-'));
  const name = segment(input.file.code);
  const bag = join(root, name);
  try {
    const payload: { path: string; hash: string; size: number }[] = [];
    const write = async (path: string, bytes: Buffer) => {
      await mkdir(join(bag, path, '..'), { recursive: true });
      await writeFile(join(bag, path), bytes);
      payload.push({ path, hash: sha256(bytes), size: bytes.length });
    };
    const documents = [];
    for (const [i, d] of input.documents.entries()) {
      const folder = `data/${String(i + 1).padStart(3, '0')}-${segment(d.doc_number ?? `draft-${d.id}`)}`;
      const attachments = [];
      for (const [j, f] of d.record.files.entries()) {
        const path = `${folder}/${String(j + 1).padStart(2, '0')}-${segment(f.fileName)}`;
        const bytes = await files.get(f.sha256);
        if (sha256(bytes) !== f.sha256)
          throw new Error(`stored bytes of ${f.sha256} do not match their hash`);
        await write(path, bytes);
        attachments.push({ path, fileName: f.fileName, sha256: f.sha256, size: bytes.length });
      }
      documents.push({
        number: d.doc_number,
        subject: d.subject,
        direction: d.direction,
        documentDate: d.document_date,
        registeredAt: d.registered_at,
        attachments,
      });
      await onDocument?.(i + 1);
    }
    const f = input.file;
    const metadata = {
      file: {
        code: f.code,
        titleAr: f.titleAr,
        titleEn: f.titleEn,
        department: f.department,
        openedOn: f.openedOn,
        closedOn: f.closedOn,
        retention: f.retention,
      },
      disposition: {
        id: input.disposition.id,
        legalReference: input.disposition.legalReference,
        proposedBy: input.disposition.proposedBy,
        proposedAt: input.disposition.proposedAt,
        approvedBy: input.disposition.approvedBy,
        approvedAt: input.disposition.approvedAt,
      },
      documents,
    };
    const opt = (tag: string, value: string | null | undefined) =>
      value ? `    <${tag}>${xml(value)}</${tag}>\n` : '';
    const docXml = documents
      .map(
        (d) =>
          `    <document direction="${xml(d.direction)}">\n` +
          (d.number ? `      <number>${xml(d.number)}</number>\n` : '') +
          `      <subject>${xml(d.subject)}</subject>\n` +
          (d.documentDate ? `      <documentDate>${d.documentDate}</documentDate>\n` : '') +
          (d.registeredAt ? `      <registeredAt>${d.registeredAt}</registeredAt>\n` : '') +
          d.attachments
            .map(
              (a) =>
                `      <attachment path="${xml(a.path)}" sha256="${a.sha256}" size="${a.size}">${xml(a.fileName)}</attachment>\n`,
            )
            .join('') +
          `    </document>\n`,
      )
      .join('');
    const r = f.retention;
    const metadataXml =
      `<?xml version="1.0" encoding="UTF-8"?>\n<file xmlns="${FILE_XML_NAMESPACE}" code="${xml(f.code)}">\n` +
      `  <titleAr>${xml(f.titleAr)}</titleAr>\n  <titleEn>${xml(f.titleEn)}</titleEn>\n` +
      (f.department
        ? `  <department ar="${xml(f.department.nameAr)}" en="${xml(f.department.nameEn)}"/>\n`
        : '') +
      `  <openedOn>${f.openedOn}</openedOn>\n` +
      (f.closedOn ? `  <closedOn>${f.closedOn}</closedOn>\n` : '') +
      (r
        ? `  <retention years="${r.years}" action="${r.action}">${xml(r.legalReference)}</retention>\n`
        : '') +
      `  <disposition id="${input.disposition.id}">\n` +
      opt('proposedBy', input.disposition.proposedBy?.nameEn) +
      opt('approvedBy', input.disposition.approvedBy?.nameEn) +
      `  </disposition>\n  <documents>\n${docXml}  </documents>\n</file>\n`;
    await write('data/metadata.json', Buffer.from(`${JSON.stringify(metadata, null, 2)}\n`));
    await write('data/metadata.xml', Buffer.from(metadataXml));

    const tags: [string, string][] = [
      ['bagit.txt', 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n'],
      [
        'bag-info.txt',
        [
          'Source-Organization: Sijill',
          `Bagging-Date: ${input.baggedOn}`,
          `External-Identifier: ${f.code}`,
          `External-Description: ${f.titleEn.replace(/\s+/g, ' ')}`,
          `Payload-Oxum: ${payload.reduce((n, p) => n + p.size, 0)}.${payload.length}`,
          '',
        ].join('\n'),
      ],
      ['manifest-sha256.txt', payload.map((p) => `${p.hash}  ${p.path}\n`).join('')],
    ];
    for (const [path, text] of tags) await writeFile(join(bag, path), text, 'utf8');
    await writeFile(
      join(bag, 'tagmanifest-sha256.txt'),
      tags.map(([path, text]) => `${sha256(Buffer.from(text, 'utf8'))}  ${path}\n`).join(''),
    );
    const out = join(root, `${name}.tar.gz`);
    await pipeline(tar.c({ gzip: true, cwd: root, portable: true }, [name]), createWriteStream(out));
    return await readFile(out);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
