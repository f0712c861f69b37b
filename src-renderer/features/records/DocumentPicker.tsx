/**
 * Documents chosen by search, for moving documents into a file and placing legal holds; value: their ids
 * (the shared DocumentSearchSelect with the records screens' words).
 */
import { useTranslation } from 'react-i18next';
import { DocumentSearchSelect } from '../../components/DocumentSearchSelect';

export function DocumentPicker(props: {
  value?: number[];
  onChange?: (value: number[]) => void;
  id?: string;
  testId?: string;
}) {
  const { t } = useTranslation('records');
  return (
    <DocumentSearchSelect
      {...props}
      placeholder={t('documentSearch')}
      notFound={t('noDocumentFound')}
      noNumber={t('noNumber')}
    />
  );
}
