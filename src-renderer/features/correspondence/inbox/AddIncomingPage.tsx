/**
 * Inbox — add an incoming letter (/correspondence/inbox/add), and continue a draft
 * (/correspondence/inbox/add?draft={id}): the shared document form, incoming family.
 */
import { DocumentForm } from '../documents/DocumentForm';

/** The route's screen. */
export function Component() {
  return <DocumentForm family="in" />;
}
