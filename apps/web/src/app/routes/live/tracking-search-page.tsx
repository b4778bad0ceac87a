import { Box, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useTrackingEvents } from '../../../features/live/api/get-tracking-events.ts';
import { useAthleteSearch, useEventDetail } from '../../../features/live/api.ts';
import { runnerName } from '../../../lib/runner-name.ts';
import { TopBar } from '../../layouts/top-bar.tsx';

/** Athlete search of one event: name or bib, an exact bib first; one keystroke away on a phone. */
export function AthleteSearch({ eventId }: { eventId: string }) {
  const { t } = useTranslation('live');
  const event = useEventDetail(eventId);
  const [q, setQ] = useState('');
  const query = useDeferredValue(q);
  const dbs = event.data?.contexts.map((c) => c.db) ?? [];
  const hits = useAthleteSearch(dbs, query);
  // Issue 19: each hit names its race.
  const races = new Map(event.data?.races.map((r) => [r.id, r.name]) ?? []);
  if (event.isError) return <PageError error={event.error} />;
  return (
    <Box>
      <SearchField
        autoFocus
        value={q}
        onChange={setQ}
        label={t('searchLabel')}
        placeholder={t('searchPlaceholder')}
        inputProps={{ inputMode: 'search', enterKeyHint: 'search' }}
        sx={{ maxWidth: 560 }}
      />
      {hits.data && hits.data.length === 0 && q.trim() && (
        <Typography sx={{ mt: 2 }}>{t('noMatch')}</Typography>
      )}
      <List aria-label={t('results')}>
        {(q.trim() ? (hits.data ?? []) : []).map((hit) => (
          <ListItem key={`${hit.raceId}/${hit.bib}`} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={`/events/${encodeURIComponent(eventId)}/tracking/${hit.trackingKey}`}
            >
              <ListItemText
                primary={`${hit.bib} · ${runnerName(hit.name)}`}
                secondary={[races.get(hit.raceId), hit.category, hit.club, t(`status.${hit.status}`)]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

/**
 * `/tracking`, `/genericTracking`: pick an event, then find the athlete. `embedded`: inside
 * another page that has its own heading (the followed athletes' page when nobody is followed).
 */
export default function TrackingSearchPage({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation('live');
  const { eventId } = useParams();
  const events = useTrackingEvents(!eventId);
  if (eventId) return <AthleteSearch eventId={eventId} />;
  const body = (
    <Box sx={embedded ? { maxWidth: 720 } : { p: { xs: 2, sm: 4 }, maxWidth: 720, mx: 'auto' }}>
      {!embedded && <PageHeader title={t('title')} crumbs={[[t('title')]]} />}
      <Typography sx={{ mb: 1 }}>{t('pickEvent')}</Typography>
      {events.isPending && <PageLoading />}
      {events.isError && <PageError error={events.error} />}
      <List>
        {events.data?.map((e) => (
          <ListItem key={e.id} disablePadding>
            <ListItemButton component={RouterLink} to={`/events/${encodeURIComponent(e.id)}/tracking`}>
              <ListItemText primary={e.name} secondary={e.place} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
  // Issue 19: the blank layout's tracking page gets the top bar (a way home, the language).
  return embedded ? (
    body
  ) : (
    <>
      <TopBar testId="page-top-bar" />
      {body}
    </>
  );
}
