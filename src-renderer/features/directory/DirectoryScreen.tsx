/**
 * The frame every Employee Centre screen shares: a title, a short description and the content in a
 * card, so the four screens look alike without repeating their layout.
 */
import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import './directory.css';

/** A titled Employee Centre screen; `above` sits between the heading and the card (the dashboard). */
export function DirectoryScreen({
  title,
  description,
  testId,
  above,
  children,
}: {
  title: string;
  description?: string;
  testId: string;
  above?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="directory-screen" data-testid={testId}>
      <div className="directory-screen-head">
        <Typography.Title level={3} className="page-title directory-screen-title" data-testid="page-title">
          {title}
        </Typography.Title>
        {description && <Typography.Text type="secondary">{description}</Typography.Text>}
      </div>
      {above}
      <Card>{children}</Card>
    </div>
  );
}
