/**
 * Outbox — write an outgoing letter (/correspondence/outbox/add; ?replyTo={id} answers an incoming
 * letter): the shared document form, outgoing family.
 */
import { useSearchParams } from 'react-router-dom';
import { DocumentForm } from '../documents/DocumentForm';

/** The route's screen. */
export function Component() {
  const [params] = useSearchParams();
  return <DocumentForm key={params.get('replyTo') ?? 'new'} family="out" />;
}
