/**
 * The archive dashboard (issue 30, PAGES.archiveDashboard): its figures and charts over the period, each opening the list behind it (DashboardScreen).
 */
import { DashboardScreen } from './DashboardScreen';

/** The route's screen. */
export function Component() {
  return <DashboardScreen name="archive" testId="archive-dashboard" byDepartment={false} />;
}
