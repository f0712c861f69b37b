/** Search — one document opened from the results: the shared document detail, Back returns to the results. */
import { useParams } from 'react-router-dom';
import { DocumentDetail } from '../documents/DocumentDetail';

/** The route's screen. */
export function Component() {
  const { id } = useParams();
  return <DocumentDetail key={id} id={Number(id)} context="search" />;
}
