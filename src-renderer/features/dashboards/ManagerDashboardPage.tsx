/**
 * The manager dashboard (issue 30, PAGES.managerDashboard): its figures and charts over the period and the
 * department chosen, each opening the list behind it (DashboardScreen).
 */
import { DashboardScreen } from './DashboardScreen';

/** The route's screen. */
export function Component() {
  return <DashboardScreen name="manager" testId="manager-dashboard" byDepartment={true} />;
}
