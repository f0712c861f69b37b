/**
 * The add form's limit for an attachment; the check itself is the shared one (components/upload/transfer.ts
 * pdfFileProblem), which names the file.
 */

/** The largest attachment the form sends (the server may refuse less with a 413). */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
