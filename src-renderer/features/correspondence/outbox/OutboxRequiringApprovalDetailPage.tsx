/** Outbox — a letter waiting for my answer (/correspondence/outbox/requiring-approval/{id}): the shared document detail. */
import { useParams } from 'react-router-dom';
import { DocumentDetail } from '../documents/DocumentDetail';

/** The route's screen. */
export function Component() {
  const { id } = useParams();
  return <DocumentDetail key={id} id={Number(id)} context="outbox-requiring" />;
}
