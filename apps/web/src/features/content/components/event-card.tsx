import { Box, Card, CardActionArea, CardContent, Chip, Typography } from '@mui/material';
import type { EventSummary } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** The dates of an event in the interface language ("31 May 2026", or a range). */
export function useEventDates() {
  const { i18n } = useTranslation();
  // In the page language's format (issue 43): English the British way, "5 Dec 2026", as every date.
  const format = dateTimeFormat(i18n.language.startsWith('fr') ? 'fr-BE' : 'en-GB', {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });
  return (e: Pick<EventSummary, 'startDate' | 'endDate'>) => {
    const start = format.format(new Date(`${e.startDate}T00:00:00Z`));
    return e.endDate === e.startDate
      ? start
      : `${start} – ${format.format(new Date(`${e.endDate}T00:00:00Z`))}`;
  };
}

/** One event of the home page, linking to its event area. */
export function EventCard({ event }: { event: EventSummary }) {
  const { t } = useTranslation('content');
  const dates = useEventDates();
  const accent = event.branding.color ?? undefined;
  return (
    <Card
      variant="outlined"
      sx={{ borderLeft: 4, borderLeftColor: accent ?? 'primary.main', height: '100%' }}
    >
      <CardActionArea component={RouterLink} to={paths.eventHome(event.id)} sx={{ height: '100%' }}>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
            {event.logoUrl && (
              <Box
                component="img"
                src={event.logoUrl}
                alt=""
                loading="lazy"
                sx={{ height: 32, maxWidth: 64, objectFit: 'contain', flexShrink: 0 }}
              />
            )}
            <Typography variant="h6" component="h3" sx={{ flexGrow: 1, fontSize: 18 }}>
              {event.name}
            </Typography>
            <Chip
              size="small"
              label={t(`status.${event.status}`)}
              color={event.status === 'live' ? 'error' : event.status === 'upcoming' ? 'primary' : 'default'}
            />
          </Box>
          <Typography color="text.secondary">
            {dates(event)}
            {event.place ? ` · ${event.place}` : ''}
          </Typography>
          {event.branding.tagline && (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {event.branding.tagline}
            </Typography>
          )}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
