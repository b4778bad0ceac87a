import { Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useConsoleEvent } from '../../../features/console/api/events.ts';
import { useRegistrationSettings } from '../../../features/entries/api/entries.ts';
import { SettingsForm } from '../../../features/entries/components/settings-form.tsx';
import { StaffList } from '../../../features/entries/components/staff-list.tsx';

/** `/console/events/{eventId}/entries` (issue 38): the entries list and the registration settings. */
export default function StaffEntriesPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('entries');
  const [tab, setTab] = useState<'list' | 'settings'>('list');
  const settings = useRegistrationSettings(eventId);
  const event = useConsoleEvent(eventId);
  if (settings.isPending || event.isPending) return <PageLoading />;
  if (settings.isError) return <PageError error={settings.error} />;
  if (event.isError) return <PageError error={event.error} />;
  return (
    <>
      <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="list" label={t('staff.list')} />
        <Tab value="settings" label={t('staff.settings')} />
      </Tabs>
      {tab === 'list' ? (
        <StaffList eventId={eventId} currency={settings.data.currency} />
      ) : (
        <SettingsForm
          eventId={eventId}
          view={settings.data}
          timeZone={event.data.timeZone}
          races={event.data.races.map((r) => ({ id: r.id, name: r.name }))}
        />
      )}
    </>
  );
}
