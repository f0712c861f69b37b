/** Outbox — requiring my approval (/correspondence/outbox/requiring-approval). */
import { RequiringApprovalScreen } from '../documents/CircuitListScreens';

/** The route's screen. */
export function Component() {
  return <RequiringApprovalScreen family="out" />;
}
