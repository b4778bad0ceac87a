import { mdiOpenInNew } from '@mdi/js';
import { Box, Button, Chip, Stack, Tab, Tabs } from '@mui/material';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { paths } from '../../../config/paths.ts';
import { useConsoleEvent } from '../../../features/console/api/events.ts';
import { SavedAnnouncer } from '../../../features/console/components/form-state.tsx';
import { eventNav, eventNavNamespaces } from '../../../features/console/event-nav.ts';

/**
 * The frame of an event in the console: its name, status and visibility, a link to the public
 * page, and the event's navigation (`features/console/event-nav.ts`, one line per feature) as
 * scrollable tabs above the page.
 */
export default function EventLayout() {
  const { t } = useTranslation(eventNavNamespaces);
  const { eventId = '' } = useParams();
  const location = useLocation();
  const event = useConsoleEvent(eventId);
  if (event.isPending) return <PageLoading />;
  if (event.isError) return <PageError error={event.error} />;
  const e = event.data;
  const tabs = eventNav.map((entry) => ({ ...entry, path: entry.to(eventId) }));
  // The deepest entry whose path starts the location (races/x/reports still selects races).
  const current = tabs
    .filter((tab) => location.pathname === tab.path || location.pathname.startsWith(`${tab.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return (
    <>
      <PageHeader
        title={e.name}
        crumbs={[
          [t('home.title'), consolePaths.home()],
          [e.organisation.name, consolePaths.organisation(e.organisation.id)],
          [e.name],
        ]}
        actions={
          // A draft: its organisers preview the public pages (issue 29), under a banner.
          <Button
            component={Link}
            to={paths.eventHome(e.id)}
            variant={e.visibility === 'draft' ? 'outlined' : 'text'}
            endIcon={<MdiIcon path={mdiOpenInNew} />}
          >
            {e.visibility === 'draft' ? t('event.previewPublic') : t('event.publicPage')}
          </Button>
        }
      />
      <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap' }}>
        <Chip
          size="small"
          label={t(`status.${e.status}`)}
          color={e.status === 'live' ? 'error' : 'default'}
        />
        <Chip
          size="small"
          variant="outlined"
          label={t(`visibility.${e.visibility}`)}
          color={e.visibility === 'draft' ? 'warning' : 'success'}
        />
        <Chip size="small" variant="outlined" label={e.timeZone} />
      </Stack>
      <Box
        component="nav"
        aria-label={t('eventNav.label')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        <Tabs
          value={current?.key ?? false}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
        >
          {tabs.map((tab) => (
            <Tab
              key={tab.key}
              value={tab.key}
              component={Link}
              to={tab.path}
              label={t(tab.label)}
              icon={<MdiIcon path={tab.icon} fontSize="small" />}
              iconPosition="start"
              sx={{ minHeight: 48 }}
              data-testid={`event-nav-${tab.key}`}
            />
          ))}
        </Tabs>
      </Box>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <SavedAnnouncer />
    </>
  );
}
