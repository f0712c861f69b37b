/** A letter as an author writes it, for the final-letter tests and benchmark (issue 27). */
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A letter of `pages` A4 pages (Latin text: the stamp brings the Arabic). */
export async function letterPdf(pages = 2): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++)
    pdf.addPage([595, 842]).drawText(`Letter body, page ${i}`, { x: 72, y: 600, size: 14, font });
  return Buffer.from(await pdf.save());
}
