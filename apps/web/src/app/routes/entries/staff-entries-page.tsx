import { Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useRegistrationSettings } from '../../../features/entries/api/entries.ts';
import { StaffList } from '../../../features/entries/components/staff-list.tsx';
import { StaffSettings } from '../../../features/entries/components/staff-settings.tsx';

/** `/console/events/{eventId}/entries` (issue 38): the entries list and the registration settings. */
export default function StaffEntriesPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('entries');
  const [tab, setTab] = useState<'list' | 'settings'>('list');
  const settings = useRegistrationSettings(eventId);
  if (settings.isPending) return <PageLoading />;
  if (settings.isError) return <PageError error={settings.error} />;
  return (
    <>
      <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="list" label={t('staff.list')} />
        <Tab value="settings" label={t('staff.settings')} />
      </Tabs>
      {tab === 'list' ? (
        <StaffList eventId={eventId} currency={settings.data.currency} />
      ) : (
        <StaffSettings eventId={eventId} view={settings.data} />
      )}
    </>
  );
}
