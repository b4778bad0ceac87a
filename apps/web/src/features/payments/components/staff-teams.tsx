import { Chip, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useEventDeposits } from '../api/payments.ts';

/** Organiser staff: every team (deposit) of the event, each opening its overview. */
export function StaffTeams({ eventId }: { eventId: string }) {
  const { t } = useTranslation(['payments', 'deposits']);
  const teams = useEventDeposits(eventId);
  if (!teams.data?.length) return <Typography color="text.secondary">{t('staff.noTeams')}</Typography>;
  return (
    <List>
      {teams.data.map((d) => (
        <ListItemButton
          key={d.id}
          divider
          component={RouterLink}
          to={paths.depositView(eventId, d.id, 'overview')}
        >
          <ListItemText
            primary={`${d.organisationName} · #${d.id}`}
            secondary={t('staff.entries', { count: d.entries })}
          />
          <Chip size="small" label={t(`deposits:states.deposit.${d.state}`)} />
        </ListItemButton>
      ))}
    </List>
  );
}
