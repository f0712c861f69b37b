/** Administration: pages (placeholder until the administration screens land). */
export function PagesPage() {
  return null;
}
