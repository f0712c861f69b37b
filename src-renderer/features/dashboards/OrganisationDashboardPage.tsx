/** The OrganisationDashboard page (issue 30): a placeholder until its screen is built. */
import { PlaceholderPage } from '../../components/PlaceholderPage';

export function Component() {
  return <PlaceholderPage empty="noRecords" />;
}
