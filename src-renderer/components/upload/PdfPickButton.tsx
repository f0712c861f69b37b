/**
 * A button that lets the user choose one PDF and hands it over (antd Upload without its own list or
 * transfer: the caller checks the file and sends it, see transfer.ts).
 */
import type { ReactNode } from 'react';
import { Button, Upload } from 'antd';

export function PdfPickButton({
  onFile,
  icon,
  loading,
  testId,
  children,
}: {
  /** The chosen file, before anything is sent. */
  onFile: (file: File) => void;
  icon: ReactNode;
  loading: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Upload
      accept="application/pdf,.pdf"
      showUploadList={false}
      beforeUpload={(file) => {
        onFile(file);
        return false;
      }}
    >
      <Button icon={icon} loading={loading} data-testid={testId}>
        {children}
      </Button>
    </Upload>
  );
}
