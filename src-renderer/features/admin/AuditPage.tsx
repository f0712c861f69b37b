/** Administration: audit (placeholder until the administration screens land). */
export function AuditPage() {
  return null;
}
