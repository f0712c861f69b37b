/**
 * The organisation dashboard (issue 30, PAGES.organisationDashboard): its figures and charts over the period and the
 * department chosen, each opening the list behind it (DashboardScreen).
 */
import { DashboardScreen } from './DashboardScreen';

/** The route's screen. */
export function Component() {
  return <DashboardScreen name="organisation" testId="organisation-dashboard" byDepartment={true} />;
}
