/** Administration: roles (placeholder until the administration screens land). */
export function RolesPage() {
  return null;
}
