/** Administration: users (placeholder until the administration screens land). */
export function UsersPage() {
  return null;
}
