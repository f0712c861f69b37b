/** Memos — requiring my approval (/correspondence/memos/requiring-approval). */
import { RequiringApprovalScreen } from '../documents/CircuitListScreens';

/** The route's screen. */
export function Component() {
  return <RequiringApprovalScreen family="memo" />;
}
