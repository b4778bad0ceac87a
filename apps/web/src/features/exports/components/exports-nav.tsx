import { Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';

/** Tabs between the organiser's results-out pages of an event. */
export function ExportsNav({ eventId }: { eventId: string }) {
  const { t } = useTranslation('exports');
  const { pathname } = useLocation();
  const base = `/console/events/${encodeURIComponent(eventId)}`;
  const tabs = [
    { to: `${base}/exports`, label: t('nav.exports') },
    { to: `${base}/certificate`, label: t('nav.certificate') },
    { to: `${base}/webhooks`, label: t('nav.webhooks') },
  ];
  const current = tabs.findIndex((tab) => pathname === tab.to);
  return (
    <Tabs
      value={current < 0 ? false : current}
      sx={{ mb: 2 }}
      aria-label={t('nav.label')}
      variant="scrollable"
    >
      {tabs.map((tab) => (
        <Tab key={tab.to} component={RouterLink} to={tab.to} label={tab.label} />
      ))}
    </Tabs>
  );
}
