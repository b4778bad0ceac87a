import { FormControlLabel, Paper, Switch, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useMyAlertsOff, useSetMyAlertsOff } from '../api/alerts.ts';

/** A runner turns off the alerts followers asked about them (issue 40). */
export function MyAlertsToggle() {
  const { t } = useTranslation('runner');
  const state = useMyAlertsOff();
  const set = useSetMyAlertsOff();
  if (!state.data) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={!state.data.off}
            disabled={set.isPending}
            onChange={(_e, checked) => set.mutate(!checked)}
            slotProps={{ input: { 'aria-describedby': 'my-alerts-help' } }}
          />
        }
        label={t('alerts.runnerOff')}
      />
      <Typography id="my-alerts-help" variant="body2" color="text.secondary">
        {t('alerts.runnerOffHelp')}
      </Typography>
    </Paper>
  );
}
