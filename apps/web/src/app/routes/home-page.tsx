import { mdiMagnify } from '@mdi/js';
import {
  Box,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  InputAdornment,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { paths } from '../../config/paths.ts';
import { apiGet } from '../../lib/api-client.ts';

interface EventSummary {
  id: string;
  name: string;
  place: string;
  startDate: string;
  endDate: string;
  status: 'upcoming' | 'live' | 'finished';
}

const today = () => new Date().toISOString().slice(0, 10);

/** `/`: live now, upcoming and past events, with a search by name, place or date. */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const [q, setQ] = useState('');
  const query = useDeferredValue(q.trim());
  const events = useQuery({
    queryKey: ['events', query],
    queryFn: ({ signal }) =>
      apiGet<EventSummary[]>('eventsApiUrlBase', `events${query ? `?q=${encodeURIComponent(query)}` : ''}`, {
        signal,
      }),
    placeholderData: (previous) => previous,
  });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const sections: [string, EventSummary[]][] = events.data
    ? [
        ['home.live', events.data.filter((e) => e.status === 'live')],
        ['home.upcoming', events.data.filter((e) => e.status === 'upcoming' && e.endDate >= today())],
        [
          'home.past',
          events.data.filter(
            (e) => e.status === 'finished' || (e.status === 'upcoming' && e.endDate < today()),
          ),
        ],
      ]
    : [];
  return (
    <>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('home.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('home.subtitle')}
      </Typography>
      <TextField
        value={q}
        onChange={(e) => setQ(e.target.value)}
        label={t('home.search')}
        fullWidth
        sx={{ maxWidth: 520, mb: 3 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <MdiIcon path={mdiMagnify} />
              </InputAdornment>
            ),
          },
        }}
      />
      {events.isPending && <PageLoading />}
      {events.isError && <PageError error={events.error} />}
      {events.data?.length === 0 && <Typography>{t('home.none')}</Typography>}
      {sections.map(([title, list]) =>
        list.length === 0 ? null : (
          <Box component="section" key={title} sx={{ mb: 3 }} aria-labelledby={title}>
            <Typography variant="h6" component="h2" id={title} sx={{ mb: 1 }}>
              {t(title)}
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
              }}
            >
              {list.map((event) => (
                <Card key={event.id} variant="outlined">
                  <CardActionArea
                    component={RouterLink}
                    to={paths.eventHome(event.id)}
                    sx={{ height: '100%' }}
                  >
                    <CardContent>
                      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                        <Typography variant="h6" component="h3" sx={{ fontSize: 18 }}>
                          {event.name}
                        </Typography>
                        {event.status === 'live' && (
                          <Chip size="small" color="error" label={t('home.liveBadge')} />
                        )}
                      </Box>
                      <Typography color="text.secondary">
                        {format.format(new Date(`${event.startDate}T00:00:00Z`))} · {event.place}
                      </Typography>
                    </CardContent>
                  </CardActionArea>
                </Card>
              ))}
            </Box>
          </Box>
        ),
      )}
    </>
  );
}
