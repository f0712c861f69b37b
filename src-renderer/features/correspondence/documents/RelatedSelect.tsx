/**
 * Search and link related documents: a select searching, as the user types, every document the user may
 * see (GET /correspondence/documents/lookup: subject, numbers, sender's number; any direction — a reply
 * links the incoming letter it answers); value is the chosen documents' ids.
 */
import { useTranslation } from 'react-i18next';
import type { RelatedDocument } from '../../../../src-shared/api/correspondence';
import { DocumentSearchSelect } from '../../../components/DocumentSearchSelect';

/** A multiple select of documents to relate (form control: `value`/`onChange`), `excludeId` left out. */
export function RelatedSelect(props: {
  /** Documents already linked (their labels before any search). */
  initial?: readonly RelatedDocument[];
  value?: number[];
  onChange?: (value: number[]) => void;
  excludeId?: number;
  id?: string;
  testId?: string;
}) {
  const { t } = useTranslation('correspondence');
  return (
    <DocumentSearchSelect
      {...props}
      placeholder={t('form.relatedPlaceholder')}
      notFound={t('empty.documents')}
      noNumber={t('document.noNumber')}
    />
  );
}
