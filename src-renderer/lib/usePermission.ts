/**
 * The current page's permissions for the administration screens, which show or hide their actions by
 * them (specification section 2: matching a page stores its permissions as the current ones). The
 * shell's guard owns them (app/permissions.tsx); a screen may also be handed them explicitly (tests,
 * or a screen embedded elsewhere), which wins.
 */
import type { Permission } from '../../src-shared/permissions';
import { usePagePermissions as useCurrentPagePermissions } from '../app/permissions';

/** The current page permissions: the explicit ones if given, else the guard's for this route. */
export function usePagePermissions(explicit?: readonly Permission[]): readonly Permission[] {
  const current = useCurrentPagePermissions();
  return explicit ?? current;
}

/** A checker over the current page permissions, for screens with several actions: `can('edit')`. */
export function useCan(explicit?: readonly Permission[]): (permission: Permission) => boolean {
  const permissions = usePagePermissions(explicit);
  return (permission) => permissions.includes(permission);
}
