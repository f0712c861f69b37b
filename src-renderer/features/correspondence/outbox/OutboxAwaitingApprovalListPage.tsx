/** Outbox — awaiting approval and requiring changes (/correspondence/outbox/awaiting-approval). */
import { AwaitingApprovalScreen } from '../documents/CircuitListScreens';

/** The route's screen. */
export function Component() {
  return <AwaitingApprovalScreen family="out" />;
}
