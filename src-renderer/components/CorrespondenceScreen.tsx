/**
 * The frame every correspondence screen shares: the page's title from the page tree (or a given one),
 * an optional subtitle and toolbar, and the content. Keeps the inbox, settings and calendar screens alike.
 */
import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentPage } from '../app/permissions';
import { localName } from '../lib/names';
import '../styles/correspondence.css';

/** A titled correspondence screen; `title` overrides the page tree's name. */
export function CorrespondenceScreen({
  title,
  subtitle,
  extra,
  testId,
  children,
}: {
  title?: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  const { i18n } = useTranslation();
  const node = useCurrentPage();
  return (
    <div className="corr-screen" data-testid={testId}>
      <Flex className="corr-screen-head" justify="space-between" align="center" gap={12} wrap>
        <div>
          <Typography.Title level={3} className="page-title corr-screen-title" data-testid="page-title">
            {title ?? localName(node, i18n.language)}
          </Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
        </div>
        {extra && (
          <Flex gap={8} wrap align="center">
            {extra}
          </Flex>
        )}
      </Flex>
      {children}
    </div>
  );
}
