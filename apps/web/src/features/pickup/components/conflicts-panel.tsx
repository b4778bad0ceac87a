import { Alert, Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/money.ts';
import { useConflicts, useResolveConflict } from '../api/pickup.ts';

/** The runners handed out twice (issue 39: two tables, offline): both handouts, one tap to resolve. */
export function ConflictsPanel({
  eventId,
  online,
  timeZone,
}: {
  eventId: string;
  online: boolean;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation('pickup');
  const conflicts = useConflicts(eventId, online);
  const resolve = useResolveConflict(eventId);
  const open = (conflicts.data ?? []).filter((c) => c.state === 'conflict');
  if (!open.length) return null;
  const at = (iso: string) => formatDateTime(iso, i18n.language, timeZone, { date: false });
  return (
    <Alert severity="warning" role="region" aria-label={t('conflicts.title', { count: open.length })}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 'bold' }}>
        {t('conflicts.title', { count: open.length })}
      </Typography>
      <Box component="ul" sx={{ pl: 2, my: 1 }}>
        {open.map((c) => (
          <li key={c.id}>
            {t('conflicts.line', {
              name: c.name,
              bib: c.bib ?? '—',
              kept: c.kept ? at(c.kept.at) : '—',
              keptBy: c.kept ? `${c.kept.by} (${c.kept.device})` : '—',
              again: at(c.conflict.at),
              againBy: `${c.conflict.by} (${c.conflict.device})`,
            })}{' '}
            <Button size="small" onClick={() => resolve.mutate(c.id)} disabled={resolve.isPending}>
              {t('conflicts.resolve')}
            </Button>
          </li>
        ))}
      </Box>
    </Alert>
  );
}
