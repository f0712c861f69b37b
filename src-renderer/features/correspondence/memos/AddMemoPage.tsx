/** Memos — write an internal memo (/correspondence/memos/add): the shared document form, memo family. */
import { DocumentForm } from '../documents/DocumentForm';

/** The route's screen. */
export function Component() {
  return <DocumentForm family="memo" />;
}
