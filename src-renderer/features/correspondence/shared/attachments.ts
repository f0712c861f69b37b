/**
 * The add form's check of a chosen attachment before it is sent (specification section 5): a PDF by its
 * first bytes (`%PDF-`), not by its name, and smaller than the limit. The server checks again (415, 413).
 */
import { formatSize, isPdfBytes, readBytes } from '../../../components/upload/transfer';

/** The largest attachment the form sends (the server may refuse less with a 413). */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;

/** Why a file is refused: the i18n key (under `correspondence:`) and its values, or null when fine. */
export type AttachmentProblem = { key: 'validation.pdf' } | { key: 'validation.fileSize'; maxSize: string };

/** Checks a chosen file: size first (no need to read a huge file), then the PDF signature. */
export async function checkAttachment(
  file: Blob,
  maxBytes: number = ATTACHMENT_MAX_BYTES,
  language?: string,
): Promise<AttachmentProblem | null> {
  if (file.size >= maxBytes) return { key: 'validation.fileSize', maxSize: formatSize(maxBytes, language) };
  const head = await readBytes(file.slice(0, 5));
  return isPdfBytes(head) ? null : { key: 'validation.pdf' };
}
