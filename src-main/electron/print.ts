/**
 * Printing without a dialog on the desktop: the renderer lays out what it prints (a sticker's pages as
 * images, in its print-only container, with the label's page size) and asks main to print the window's
 * page to a printer by name. Electron's `webContents.print` with `silent: true` sends it there directly;
 * the page size is the label's, in micrometres, without margins, so a 50 × 25 mm label prints as one.
 */
import type { BrowserWindow } from 'electron';
import type { PrintRequest, PrintResult, Printers } from '../../src-shared/ipc/contract';

export function windowPrinting(window: () => BrowserWindow | null) {
  return {
    async printers(): Promise<Printers> {
      const contents = window()?.webContents;
      if (!contents) return { silent: true, printers: [] };
      const found = await contents.getPrintersAsync();
      return {
        silent: true,
        printers: found.map((p) => ({
          name: p.name,
          displayName: p.displayName || p.name,
          isDefault: Boolean((p as { isDefault?: boolean }).isDefault),
        })),
      };
    },
    async silent(request: PrintRequest): Promise<PrintResult> {
      const contents = window()?.webContents;
      if (!contents) return { printed: false, reason: 'failed', detail: 'no window' };
      const printers = await contents.getPrintersAsync();
      if (!printers.some((p) => p.name === request.printer))
        return { printed: false, reason: 'noPrinter', detail: request.printer };
      return new Promise<PrintResult>((resolve) => {
        contents.print(
          {
            silent: true,
            deviceName: request.printer,
            printBackground: false,
            margins: { marginType: 'none' },
            pageSize: {
              width: Math.round(request.widthMm * 1000),
              height: Math.round(request.heightMm * 1000),
            },
          },
          (printed, failureReason) =>
            resolve(
              printed
                ? { printed: true, reason: null, detail: null }
                : { printed: false, reason: 'failed', detail: failureReason || null },
            ),
        );
      });
    },
  };
}
