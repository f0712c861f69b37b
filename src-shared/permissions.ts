/** Page permissions (docs/api.md): each page node of the tree carries the ones the caller's role holds. */
export const PERMISSIONS = [
  'view',
  'add',
  'edit',
  'delete',
  'activate',
  'approve',
  'distribute',
  'export',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
