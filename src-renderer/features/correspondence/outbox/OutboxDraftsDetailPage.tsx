/** Outbox — one draft (/correspondence/outbox/draft/{id}): the document form continuing it. */
import { useParams } from 'react-router-dom';
import { DocumentForm } from '../documents/DocumentForm';

/** The route's screen. */
export function Component() {
  const { id } = useParams();
  return <DocumentForm key={id} family="out" draftId={Number(id)} />;
}
