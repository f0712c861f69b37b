/**
 * The icons a page-tree node may name (`icon`: an antd icon component name). An explicit registry keeps
 * the bundle to the icons used; an unknown name shows a neutral file icon.
 */
import type { ComponentType } from 'react';
import {
  ApartmentOutlined,
  AuditOutlined,
  CalendarOutlined,
  CarOutlined,
  CheckSquareOutlined,
  ContainerOutlined,
  FieldTimeOutlined,
  FileDoneOutlined,
  FileOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FlagOutlined,
  FolderOutlined,
  HistoryOutlined,
  HomeOutlined,
  HourglassOutlined,
  IdcardOutlined,
  InboxOutlined,
  KeyOutlined,
  LockOutlined,
  MailOutlined,
  MenuOutlined,
  NumberOutlined,
  PlusCircleOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
  SendOutlined,
  SettingOutlined,
  ShareAltOutlined,
  SmileOutlined,
  TeamOutlined,
  UserOutlined,
  BellOutlined,
  SwapOutlined,
  StopOutlined,
  CloudDownloadOutlined,
  DatabaseOutlined,
  ScheduleOutlined,
  DeleteOutlined,
} from '@ant-design/icons';

export const PAGE_ICONS: Readonly<Record<string, ComponentType>> = {
  ApartmentOutlined,
  AuditOutlined,
  CalendarOutlined,
  CarOutlined,
  CheckSquareOutlined,
  ContainerOutlined,
  FieldTimeOutlined,
  FileDoneOutlined,
  FileOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FlagOutlined,
  FolderOutlined,
  HistoryOutlined,
  HomeOutlined,
  HourglassOutlined,
  IdcardOutlined,
  InboxOutlined,
  KeyOutlined,
  LockOutlined,
  MailOutlined,
  MenuOutlined,
  NumberOutlined,
  PlusCircleOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
  SendOutlined,
  SettingOutlined,
  ShareAltOutlined,
  SmileOutlined,
  TeamOutlined,
  UserOutlined,
  BellOutlined,
  SwapOutlined,
  StopOutlined,
  CloudDownloadOutlined,
  // Records management (issue 31).
  DatabaseOutlined,
  ScheduleOutlined,
  DeleteOutlined,
};

/** The icon of a page-tree node by name. */
export function PageIcon({ name }: { name: string | null | undefined }) {
  const Icon =
    (name && Object.prototype.hasOwnProperty.call(PAGE_ICONS, name) ? PAGE_ICONS[name] : null) ??
    FileOutlined;
  return <Icon />;
}
