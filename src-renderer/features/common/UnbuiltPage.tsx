/** A page the tree grants that this client has no screen for yet: its title and a generic empty state. */
import { PlaceholderPage } from '../../components/PlaceholderPage';

export function Component() {
  return <PlaceholderPage empty="noRecords" />;
}
