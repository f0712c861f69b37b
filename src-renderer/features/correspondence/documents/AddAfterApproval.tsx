/** A document detail's panel part: adding a file to an approved letter or memo (its archive office). */
import { useState } from 'react';
import { Alert, Flex, Select } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ADDITION_KINDS, type AdditionKind, type Document } from '../../../../src-shared/api/correspondence';
import { pdfFileProblem } from '../../../components/upload/transfer';
import { useUploadLimit } from '../../../lib/upload-limit';
import { documentsApi } from './api';
import { PdfPickButton } from '../../../components/upload/PdfPickButton';

/** An addition after approval, sent by the archive office holding the document: its kind, then the PDF. */
export function AddAfterApproval({ doc, onAdded }: { doc: Document; onAdded: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const uploadLimit = useUploadLimit();
  const [kind, setKind] = useState<AdditionKind>('signedCopy');
  const [problem, setProblem] = useState<string | null>(null);
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const addition = useMutation({
    mutationFn: ({ id, kind, file }: { id: number; kind: AdditionKind; file: File }) =>
      documentsApi.addAfterApproval(id, kind, file),
    networkMode: 'always',
  });
  const send = async (file: File) => {
    setProblem(null);
    const failed = await pdfFileProblem(file, uploadLimit, i18n.language);
    if (failed) return setProblem(failed);
    try {
      await addition.mutateAsync({ id: doc.id, kind, file });
      onAdded();
    } catch {
      // the transfer helper toasted the server's message
    }
  };
  return (
    <Flex vertical gap={8} className="corr-additions-add">
      <Flex gap={8} wrap align="center">
        <Select<AdditionKind>
          value={kind}
          onChange={setKind}
          options={ADDITION_KINDS.map((k) => ({ value: k, label: t(`additions.kind.${k}`) }))}
          aria-label={t('additions.kindLabel')}
          className="corr-additions-kind"
          data-testid="addition-kind"
        />
        <PdfPickButton
          onFile={(file) => void send(file)}
          icon={<PlusOutlined />}
          loading={addition.isPending}
          testId="addition-upload"
        >
          {t('additions.add')}
        </PdfPickButton>
      </Flex>
      {problem && (
        <Alert
          type="error"
          showIcon
          title={problem}
          closable
          onClose={() => setProblem(null)}
          data-testid="addition-error"
        />
      )}
    </Flex>
  );
}
