import { Alert, Box, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { EventSummary } from '@tempora/contracts';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { eventsQuery } from '../../../features/content/api/events.ts';
import { EventCard } from '../../../features/content/components/event-card.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { useEndPrePaint } from '../../../lib/pre-paint.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** Splits events into live now, upcoming and past (past: finished or ended before today). */
export function sections(events: EventSummary[], day = today()): [string, EventSummary[]][] {
  const past = (e: EventSummary) => e.status === 'finished' || (e.status !== 'live' && e.endDate < day);
  return [
    ['live', events.filter((e) => e.status === 'live')],
    ['upcoming', events.filter((e) => e.status === 'upcoming' && !past(e)).reverse()],
    ['past', events.filter(past)],
  ];
}

/** `/`: live now, upcoming and past events, with a search by name, place or date. */
export default function HomePage() {
  const { t } = useTranslation('content');
  const [q, setQ] = useState('');
  const query = useDeferredValue(q.trim());
  const events = useQuery(eventsQuery(query));
  // The cards as drawn lag the answer by one render: its arrival renders them as a transition, in
  // slices that give the main thread back (issue 28: Lighthouse TBT on a phone).
  const list = useDeferredValue(events.data);
  // The boot script's picture of this page (src/pre-paint/content-pre-paint.ts) goes once the
  // events are on screen.
  useEndPrePaint(!!list, events.isError);
  useDocumentTitle(t('home.title'));
  return (
    <>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 600, mb: 1, fontSize: { xs: 26, sm: 34 } }}>
        {t('home.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('home.subtitle')}
      </Typography>
      <SearchField
        value={q}
        onChange={setQ}
        label={t('home.search')}
        placeholder={t('home.searchHint')}
        sx={{ maxWidth: 520, mb: 3 }}
      />
      {!list && !events.isError && <PageLoading />}
      {events.isError && <PageError error={events.error} />}
      {list && list.length === 0 && <Alert severity="info">{t('home.none')}</Alert>}
      {list &&
        sections(list).map(([key, section]) =>
          section.length ? (
            <Box component="section" key={key} sx={{ mb: 3 }} aria-labelledby={`home-${key}`}>
              <Typography id={`home-${key}`} variant="h5" component="h2" sx={{ mb: 1.5, fontSize: 20 }}>
                {t(`home.${key}`)}
              </Typography>
              <Box
                sx={{
                  display: 'grid',
                  gap: 2,
                  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
                }}
              >
                {section.map((event) => (
                  <EventCard key={event.id} event={event} />
                ))}
              </Box>
            </Box>
          ) : null,
        )}
    </>
  );
}
