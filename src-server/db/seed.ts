/**
 * Base data every server needs, applied after the migrations on each start (idempotent, safe when
 * several servers start at once): the initial page tree and the built-in administrator role. migrate.ts
 * runs it in the migrations' transaction.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Db } from './open';
import { pages, roles } from './schema';
import { INITIAL_PAGE_TREE } from './page-tree';

/** Inserts missing sections, pages and the administrator role; never overwrites existing rows. */
export async function ensureBaseData(db: Pick<Db, 'transaction'>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(pages)
      .values(
        INITIAL_PAGE_TREE.map((s, i) => ({
          parentId: null,
          nameAr: s.nameAr,
          nameEn: s.nameEn,
          path: s.path,
          icon: s.icon,
          order: (i + 1) * 10,
          availablePermissions: ['view'],
        })),
      )
      .onConflictDoNothing({ target: pages.path });
    const sectionRows = await tx
      .select({ id: pages.id, path: pages.path })
      .from(pages)
      .where(
        inArray(
          pages.path,
          INITIAL_PAGE_TREE.map((s) => s.path),
        ),
      );
    const sectionId = new Map(sectionRows.map((r) => [r.path, r.id]));
    const pageValues = INITIAL_PAGE_TREE.flatMap((s) =>
      s.pages.map((p, i) => ({
        parentId: sectionId.get(s.path) ?? null,
        nameAr: p.nameAr,
        nameEn: p.nameEn,
        path: p.path,
        icon: p.icon,
        order: (i + 1) * 10,
        availablePermissions: p.permissions,
      })),
    ).filter((p) => p.parentId !== null);
    await tx.insert(pages).values(pageValues).onConflictDoNothing({ target: pages.path });

    const [admin] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.isSystem, true)).limit(1);
    if (!admin) {
      await tx
        .insert(roles)
        .values({ nameAr: 'مدير النظام', nameEn: 'Administrator', isSystem: true, active: true })
        .onConflictDoNothing();
    }
  });
}
