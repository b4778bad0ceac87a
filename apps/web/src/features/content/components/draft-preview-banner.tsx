import { Alert, Link } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useMatch } from 'react-router';
import { eventQuery } from '../api/events.ts';

/**
 * Issue 29: an organiser opening a draft event's public pages sees them as spectators will, under
 * this banner; spectators get "not found" (the server answers 404 to anyone outside the event's
 * organisation). The event's query is the pages' own (one request, shared).
 */
export function DraftPreviewBanner() {
  const { t } = useTranslation('common');
  const events = useMatch('/events/:eventId/*');
  const results = useMatch('/results/:eventId/*');
  const eventId = events?.params.eventId ?? results?.params.eventId ?? '';
  const event = useQuery({ ...eventQuery(eventId), enabled: eventId !== '' });
  if (!eventId || !event.data?.draft) return null;
  return (
    <Alert
      severity="warning"
      variant="filled"
      square
      data-testid="draft-preview-banner"
      sx={{ borderRadius: 0, '& .MuiAlert-message': { width: '100%' } }}
    >
      <strong>{t('preview.title')}</strong> {t('preview.text')}{' '}
      <Link
        component={RouterLink}
        to={`/console/events/${encodeURIComponent(eventId)}`}
        color="inherit"
        sx={{ fontWeight: 600 }}
      >
        {t('preview.back')}
      </Link>
    </Alert>
  );
}
