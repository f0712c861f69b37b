/**
 * The frame every administration screen shares: a title, a short description and the content, in a
 * card. Keeps the four screens alike without repeating their layout.
 */
import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import './admin.css';

/** A titled administration screen. */
export function AdminScreen({
  title,
  description,
  testId,
  children,
}: {
  title: string;
  description?: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="admin-screen" data-testid={testId}>
      <div className="admin-screen-head">
        <Typography.Title level={3} className="admin-screen-title page-title" data-testid="page-title">
          {title}
        </Typography.Title>
        {description && <Typography.Text type="secondary">{description}</Typography.Text>}
      </div>
      <Card className="admin-screen-card">{children}</Card>
    </div>
  );
}
