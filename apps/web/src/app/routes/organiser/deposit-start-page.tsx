import { Alert, Box, Button, List, ListItemButton, ListItemText, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useMyDeposits, useOffer } from '../../../features/deposits/api/deposits.ts';
import { CreateDeposit } from '../../../features/deposits/components/create-deposit.tsx';
import { StateChip } from '../../../features/deposits/components/state-chip.tsx';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';

/** `/deposit/{event}`: the event's group-entry offer, the user's teams there, and a new team. */
export default function DepositStartPage() {
  const { t, i18n } = useTranslation('deposits');
  const { event = '' } = useParams();
  const offer = useOffer(event);
  const mine = useMyDeposits();
  if (offer.isPending) return <PageLoading />;
  if (offer.isError) return <PageError error={offer.error} />;
  const o = offer.data;
  const teams = (mine.data ?? []).filter((d) => d.eventId === event);
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2" sx={{ fontSize: 18, mb: 1 }}>
          {t('start.offer')}
        </Typography>
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {o.races.map((r) => (
            <li key={r.id}>
              {r.name} — {formatMoney(r.priceCents, o.currency, i18n.language)}
              {r.placesLeft !== null && ` · ${t('start.placesLeft', { count: r.placesLeft })}`}
            </li>
          ))}
        </Box>
        {o.deadline && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('start.deadline', { date: formatDateTime(o.deadline, i18n.language) })}
          </Typography>
        )}
      </Paper>
      {teams.length > 0 && (
        <Paper variant="outlined" sx={{ mb: 2 }}>
          <Typography variant="h6" component="h2" sx={{ fontSize: 18, p: 2, pb: 0 }}>
            {t('start.mine')}
          </Typography>
          <List>
            {teams.map((d) => (
              <ListItemButton
                key={d.id}
                component={RouterLink}
                to={paths.depositView(event, d.id, 'collect')}
              >
                <ListItemText
                  primary={d.organisationName}
                  secondary={`${t(`roles.${d.role}`)} · ${t('start.entries', { count: d.entries })}`}
                />
                <StateChip kind="deposit" state={d.state} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {o.open ? <CreateDeposit eventId={event} /> : <Alert severity="info">{t('start.closed')}</Alert>}
      <Button component={RouterLink} to={paths.payments()} sx={{ mt: 2 }}>
        {t('start.payments')}
      </Button>
    </>
  );
}
