/**
 * Paging of big lists (docs/api.md, "Lists"): a list may count its rows only up to a limit — `totalExact:
 * false` means "more than {total}" — and give each page a `next` cursor marking where it ends. The table
 * keeps the cursors of the pages it has read and sends the nearest one (`after`) with the page it asks for,
 * so the next or previous page, or any page near one already read, costs the server the rows between them
 * rather than every row from the top. The page number still decides which rows answer.
 */
import type { ListPage } from './types';

/** The row count the pager works with: a lower bound stands for one row more than it says. */
export function pagerTotal(data: Pick<ListPage<unknown>, 'total' | 'totalExact'> | undefined): number {
  if (!data) return 0;
  return data.totalExact === false ? data.total + 1 : data.total;
}

/** How many cursors one list keeps (a few hundred pages read; the oldest go first). */
const KEPT = 200;

/** The cursors of one list's pages, by ordinal: the rows up to and including the end of their page. */
export class PageCursors {
  private identity = '';
  private readonly byOrdinal = new Map<number, string>();

  /** The cursors of the query `identity` (another query's are forgotten: they mark other rows). */
  private of(identity: string): Map<number, string> {
    if (identity !== this.identity) {
      this.identity = identity;
      this.byOrdinal.clear();
    }
    return this.byOrdinal;
  }

  /** Keeps the `next` of a page of the query `identity`. */
  remember(identity: string, page: Pick<ListPage<unknown>, 'page' | 'pageSize' | 'next'>): void {
    const cursors = this.of(identity);
    if (!page.next) return;
    const ordinal = page.page * page.pageSize;
    cursors.delete(ordinal);
    cursors.set(ordinal, page.next);
    if (cursors.size > KEPT) cursors.delete(cursors.keys().next().value!);
  }

  /**
   * The cursor from which `page` is read passing over the fewest rows — forward from a position before
   * it, or backward from one after it — when that beats reading from the top; else undefined.
   */
  nearest(identity: string, page: number, pageSize: number): string | undefined {
    const start = (page - 1) * pageSize;
    let best: { cost: number; cursor?: string } = { cost: start };
    for (const [ordinal, cursor] of this.of(identity)) {
      const cost =
        ordinal <= start
          ? start - ordinal
          : ordinal > start + pageSize
            ? ordinal - 1 - (start + pageSize)
            : Infinity;
      if (cost < best.cost) best = { cost, cursor };
    }
    return best.cursor;
  }
}
