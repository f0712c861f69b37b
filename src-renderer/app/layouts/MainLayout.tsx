/**
 * The main layout: a collapsible side menu built from the page tree (sections as submenus, pages as
 * items, localised names and icons; antd mirrors it in RTL), a header with the search box and its
 * suggestions, the notifications' bell and the user menu (settings, language, logout), the offline
 * banner, the page, and the copyright line.
 */
import { useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Alert, Avatar, Badge, Button, Dropdown, Flex, Layout, Menu, Typography, type MenuProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { BoxCounts } from '../../../src-shared/api/correspondence';
import { approvalsApi, corrKeys } from '../../features/correspondence/documents/api';
import { GlobalOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PageSection } from '../../../src-shared/api/auth';
import { LanguageToggle } from '../../components/LanguageSwitch';
import { HeaderSearch } from '../../features/correspondence/search/HeaderSearch';
import { PageIcon } from '../../components/PageIcon';
import { useLocale } from '../locale';
import { useCanOn, useCurrentPage } from '../permissions';
import { sessionActions, useSession } from '../session';
import { PAGES } from '../../../src-shared/pages';
import { useLocalDraftCounts } from '../../lib/local-drafts';
import { NotificationBell } from '../../features/user/NotificationBell';

const { Header, Sider, Content, Footer } = Layout;

export function MainLayout() {
  const { t } = useTranslation('layout');
  const { t: tc } = useTranslation();
  const { locale, direction, setLocale } = useLocale();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const current = useCurrentPage();
  const [collapsed, setCollapsed] = useState(false);
  const maySearch = useCanOn(PAGES.search, 'view');

  // The profile is refreshed once per sign-in (the cached one shows meanwhile, or offline).
  const signedIn = session.signedIn;
  useEffect(() => {
    if (signedIn) void sessionActions.refreshProfile();
  }, [signedIn]);

  const sections = session.sections ?? [];
  // What waits for the user in the approval circuits, on the menu items of those lists.
  const hasCircuitPages = sections.some((s) =>
    s.children.some((c) => Object.keys(COUNT_OF_PAGE).includes(c.path)),
  );
  const counts = useQuery({
    queryKey: corrKeys.counts,
    queryFn: approvalsApi.counts,
    enabled: signedIn && hasCircuitPages,
    refetchInterval: 60_000,
    staleTime: 15_000,
  });
  const items = useMemo(
    () => menuItems(sections, locale, counts.data ?? null),
    [sections, locale, counts.data],
  );
  const selected = current?.path ?? location.pathname;
  const currentSection = sections.find((s) => s.children.some((c) => c.path === selected)) ?? null;
  const sectionOfSelected = currentSection?.path;
  const [openKeys, setOpenKeys] = useState<string[]>(sectionOfSelected ? [sectionOfSelected] : []);
  useEffect(() => {
    if (sectionOfSelected)
      setOpenKeys((keys) => (keys.includes(sectionOfSelected) ? keys : [...keys, sectionOfSelected]));
  }, [sectionOfSelected]);

  // What waits on this desk to be sent (local drafts), told by main as it changes.
  const localCounts = useLocalDraftCounts(signedIn);
  const user = session.user;
  const userName = user ? (locale === 'ar' ? user.nameAr : user.nameEn) || user.username : '';
  const userMenu: MenuProps['items'] = [
    { key: 'settings', icon: <SettingOutlined />, label: t('user.settings') },
    {
      key: 'language',
      icon: <GlobalOutlined />,
      label: (
        <span lang={locale === 'ar' ? 'en' : 'ar'}>{tc(`language.${locale === 'ar' ? 'en' : 'ar'}`)}</span>
      ),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('user.logout'), danger: true },
  ];
  const onUserMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'settings') navigate(PAGES.userSettings);
    if (key === 'language') void setLocale(locale === 'ar' ? 'en' : 'ar');
    if (key === 'logout') void sessionActions.logout();
  };

  return (
    <Layout className="main-layout">
      <Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        // The trigger's arrow points the way the menu goes: to the start side (right in Arabic).
        reverseArrow={direction === 'rtl'}
        width={264}
        theme="light"
        className="main-sider"
        data-testid="side-menu"
      >
        <div className="sider-brand">
          <span className="sider-logo" aria-hidden="true">
            {tc('app.logoLetter')}
          </span>
          {collapsed ? null : <span className="sider-name">{tc('app.name')}</span>}
        </div>
        <Menu
          mode="inline"
          items={items}
          selectedKeys={[selected]}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={(keys) => setOpenKeys(keys as string[])}
          onClick={({ key }) => navigate(key)}
        />
      </Sider>
      <Layout>
        <Header className="main-header">
          <Typography.Text className="header-title" data-testid="header-title">
            {currentSection ? (
              <>
                <span className="header-section">
                  {locale === 'ar' ? currentSection.nameAr : currentSection.nameEn}
                </span>
                <span className="header-separator" aria-hidden="true">
                  /
                </span>
              </>
            ) : null}
            <strong>{current ? (locale === 'ar' ? current.nameAr : current.nameEn) : ''}</strong>
          </Typography.Text>
          <Flex align="center" gap={8}>
            {maySearch && !location.pathname.startsWith(PAGES.search) ? <HeaderSearch /> : null}
            <NotificationBell signedIn={signedIn} />
            <LanguageToggle />
            <Dropdown
              menu={{ items: userMenu, onClick: onUserMenu }}
              trigger={['click']}
              placement="bottomRight"
            >
              <Button type="text" data-testid="user-menu" className="user-menu-button">
                <Avatar size="small" icon={<UserOutlined />} />
                <span className="user-name">{userName}</span>
              </Button>
            </Dropdown>
          </Flex>
        </Header>
        <Content className="main-content">
          {session.offline ? (
            <Alert
              type="warning"
              showIcon
              banner
              className="offline-banner"
              data-testid="offline-banner"
              title={t('offline.title')}
              description={
                <>
                  {t('offline.message')}
                  {localCounts.waiting > 0 ? (
                    <div data-testid="offline-drafts-waiting">
                      {t('correspondence:local.waitingBanner', { count: localCounts.waiting })}
                    </div>
                  ) : null}
                </>
              }
              action={
                <Button size="small" onClick={() => void sessionActions.retryConnection()}>
                  {t('offline.retry')}
                </Button>
              }
            />
          ) : null}
          <Outlet />
        </Content>
        <Footer className="main-footer">
          <Typography.Text type="secondary" data-testid="copyright">
            {tc('app.copyright')}
          </Typography.Text>
        </Footer>
      </Layout>
    </Layout>
  );
}

/** The menu items that carry a count: what requires the user's approval, and what came back to them. */
const COUNT_OF_PAGE: Record<string, keyof BoxCounts> = {
  [PAGES.outboxRequiringApproval]: 'outboxRequiringApproval',
  [PAGES.outboxAwaitingApproval]: 'outboxRequiringChanges',
  [PAGES.memosRequiringApproval]: 'memosRequiringApproval',
  [PAGES.memosAwaitingApproval]: 'memosRequiringChanges',
};

/** Sections as submenus, pages as items; keys are paths. */
function menuItems(
  sections: readonly PageSection[],
  locale: string,
  counts: BoxCounts | null,
): MenuProps['items'] {
  const countOf = (path: string) => {
    const key = COUNT_OF_PAGE[path];
    return key && counts ? counts[key] : 0;
  };
  return sections
    .filter((section) => section.children.length > 0)
    .map((section) => ({
      key: section.path,
      icon: <PageIcon name={section.icon} />,
      // A collapsed section still says that something inside waits for the user.
      label: section.children.some((page) => countOf(page.path) > 0) ? (
        <Flex justify="space-between" align="center" gap={6}>
          <span>{locale === 'ar' ? section.nameAr : section.nameEn}</span>
          <Badge
            count={section.children.reduce((sum, page) => sum + countOf(page.path), 0)}
            size="small"
            data-testid={`menu-section-count-${section.path.split('/').pop()}`}
          />
        </Flex>
      ) : locale === 'ar' ? (
        section.nameAr
      ) : (
        section.nameEn
      ),
      children: section.children.map((page) => ({
        key: page.path,
        icon: <PageIcon name={page.icon} />,
        label:
          countOf(page.path) > 0 ? (
            <Flex justify="space-between" align="center" gap={6}>
              <span>{locale === 'ar' ? page.nameAr : page.nameEn}</span>
              <Badge
                count={countOf(page.path)}
                size="small"
                color={COUNT_OF_PAGE[page.path]!.endsWith('Changes') ? 'orange' : undefined}
                data-testid={`menu-count-${COUNT_OF_PAGE[page.path]}`}
              />
            </Flex>
          ) : locale === 'ar' ? (
            page.nameAr
          ) : (
            page.nameEn
          ),
      })),
    }));
}
