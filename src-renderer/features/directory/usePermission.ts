/**
 * The current page permissions for the Employee Centre screens (show or hide actions), the guard's for
 * this route unless a screen is handed them explicitly (component tests, embedding).
 */
import type { Permission } from '../../../src-shared/permissions';
import { usePagePermissions } from '../../app/permissions';

/** A checker over the current page permissions: `can('edit')`. */
export function useDirectoryCan(explicit?: readonly Permission[]): (permission: Permission) => boolean {
  const current = usePagePermissions();
  const permissions = explicit ?? current;
  return (permission) => permissions.includes(permission);
}
