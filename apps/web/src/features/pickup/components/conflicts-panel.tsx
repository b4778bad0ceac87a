import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/money.ts';
import { type PickupConflict, useConflicts, useResolveConflict } from '../api/pickup.ts';

type Side = NonNullable<PickupConflict['first']>;

/**
 * The runners handed out twice (issue 39: two tables, offline): both handouts side by side (when,
 * who, which phone, what), and one tap to keep one of them — the other is undone; then who
 * resolved it and when. Resolved conflicts stay listed below, as a record.
 */
export function ConflictsPanel({
  eventId,
  online,
  timeZone,
  onResolved,
  names = {},
}: {
  eventId: string;
  online: boolean;
  timeZone: string;
  /** After a resolution (the runner's handout may have changed: reload the list). */
  onResolved?: () => void;
  /** Add-ons' names by key (what was handed out). */
  names?: Record<string, string>;
}) {
  const { t, i18n } = useTranslation('pickup');
  const conflicts = useConflicts(eventId, online);
  const resolve = useResolveConflict(eventId, onResolved);
  const all = conflicts.data ?? [];
  const open = all.filter((c) => c.state === 'conflict');
  const resolved = all.filter((c) => c.state === 'resolved');
  if (!all.length) return null;
  const at = (iso: string) => formatDateTime(iso, i18n.language, timeZone, { date: false });
  const items = (side: Side) =>
    side.items
      .map((k) => (k === 'bib' || k === 'chip' ? t(`conflicts.items.${k}`) : (names[k] ?? k)))
      .join(', ') || '—';
  const side = (c: PickupConflict, which: 'first' | 'second') => {
    const s = c[which];
    const undone = c.resolution !== null && c.resolution !== which;
    return (
      <Box
        data-testid={`conflict-${which}`}
        sx={{ display: 'grid', gap: 0.5, opacity: undone ? 0.6 : 1, minWidth: 0, overflowWrap: 'anywhere' }}
      >
        <Typography variant="body2" sx={{ fontWeight: 'bold' }}>
          {t(`conflicts.${which}`)}
          {c.resolution === which && ` · ${t('conflicts.kept')}`}
          {undone && ` · ${t('conflicts.undone')}`}
        </Typography>
        {s ? (
          <Typography variant="body2">
            {t('conflicts.side', { at: at(s.at), by: s.by || '—', device: s.device || '—' })}
            <br />
            {items(s)}
          </Typography>
        ) : (
          <Typography variant="body2">—</Typography>
        )}
        {c.state === 'conflict' && (
          <Button
            size="small"
            variant="outlined"
            disabled={resolve.isPending || !online}
            aria-label={t(`conflicts.keepLabel.${which}`, { name: c.name })}
            onClick={() => resolve.mutate({ id: c.id, keep: which })}
            sx={{ justifySelf: 'start' }}
          >
            {t('conflicts.keep')}
          </Button>
        )}
      </Box>
    );
  };
  const card = (c: PickupConflict) => (
    <Paper component="li" variant="outlined" key={c.id} sx={{ p: 1.5, listStyle: 'none' }}>
      <Typography variant="subtitle2" component="h3">
        {c.name} · {t('card.bib')} {c.bib ?? '—'} · {c.raceName}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          mt: 1,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        {side(c, 'first')}
        {side(c, 'second')}
      </Box>
      {c.state === 'resolved' && c.resolvedAt && (
        <Typography variant="body2" role="note" sx={{ mt: 1 }}>
          {t('conflicts.resolvedLine', {
            by: c.resolvedBy ?? '—',
            at: formatDateTime(c.resolvedAt, i18n.language, timeZone),
            kept: t(`conflicts.${c.resolution ?? 'first'}`),
          })}
        </Typography>
      )}
    </Paper>
  );
  return (
    <Stack sx={{ gap: 1.5 }}>
      {open.length > 0 && (
        <Alert
          severity="warning"
          role="region"
          aria-label={t('conflicts.title', { count: open.length })}
          sx={{ '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}
        >
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 'bold' }}>
            {t('conflicts.title', { count: open.length })}
          </Typography>
          <Typography variant="body2">{t('conflicts.help')}</Typography>
          {!online && <Typography variant="body2">{t('conflicts.offline')}</Typography>}
          <Stack component="ul" sx={{ gap: 1, p: 0, my: 1 }}>
            {open.map(card)}
          </Stack>
          {resolve.isError && (
            <Typography role="alert" variant="body2">
              {t('conflicts.failed')}
            </Typography>
          )}
        </Alert>
      )}
      {resolved.length > 0 && (
        <Box component="details">
          <Box component="summary" sx={{ cursor: 'pointer' }}>
            {t('conflicts.resolvedTitle', { count: resolved.length })}
          </Box>
          <Stack
            component="ul"
            aria-label={t('conflicts.resolvedTitle', { count: resolved.length })}
            sx={{ gap: 1, p: 0, my: 1 }}
          >
            {resolved.slice(0, 50).map(card)}
          </Stack>
        </Box>
      )}
    </Stack>
  );
}
