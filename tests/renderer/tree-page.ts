/** A page of the page tree as the server sends it, for renderer tests (its names are its path). */
import type { PageSection } from '../../src-shared/api/auth';

export const treePage = (path: string, permissions: PageSection['permissions'] = ['view']) => ({
  id: path.length,
  nameEn: path,
  nameAr: path,
  path,
  icon: 'FileOutlined',
  order: 0,
  permissions,
  children: [] as never[],
});
