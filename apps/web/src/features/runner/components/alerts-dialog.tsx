import { Alert, Checkbox, FormControlLabel, FormGroup, FormLabel, TextField } from '@mui/material';
import type { AlertSubscribed, AthleteCard } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { pushSubscription, pushSupported, useSubscribeAlerts } from '../api/alerts.ts';

/**
 * Alerts about a runner (issue 40): the points chosen (start, each split, finish), by web push on
 * this device and/or by e-mail (the address confirmed once). No account needed.
 */
export function AlertsDialog({ card, onClose }: { card: AthleteCard; onClose(): void }) {
  const { t, i18n } = useTranslation('runner');
  const lng: 'en' | 'fr' = i18n.language === 'en' ? 'en' : 'fr';
  const subscribe = useSubscribeAlerts();
  const [outcome, setOutcome] = useState<AlertSubscribed[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canPush = pushSupported();
  const points = [
    { key: 'start', name: t('alerts.start') },
    ...card.race.points.map((p) => ({ key: p.key, name: lng === 'fr' ? (p.nameFr ?? p.name) : p.name })),
  ];
  return (
    <FormDialog
      title={t('alerts.title', { name: `${card.athlete.firstName} ${card.athlete.lastName}`.trim() })}
      onClose={onClose}
      submitLabel={outcome ? undefined : t('alerts.submit')}
      cancelLabel={outcome ? t('alerts.close') : t('cancel')}
      error={error ?? undefined}
      onSubmit={async (form) => {
        setError(null);
        const data = new FormData(form);
        const chosen = points.filter((p) => data.get(`point-${p.key}`)).map((p) => p.key);
        const email = String(data.get('email') ?? '').trim();
        const push = data.get('push') === 'on';
        if (!chosen.length || (!email && !push)) {
          setError(t('alerts.choose'));
          return;
        }
        const base = { trackingKey: card.athlete.trackingKey, points: chosen, lng };
        const done: AlertSubscribed[] = [];
        try {
          if (push) {
            const subscription = await pushSubscription();
            done.push(
              await subscribe.mutateAsync({
                ...base,
                channel: 'push',
                subscription: subscription as { endpoint: string; keys: { p256dh: string; auth: string } },
              }),
            );
          }
          if (email) done.push(await subscribe.mutateAsync({ ...base, channel: 'email', email }));
          setOutcome(done);
        } catch (e) {
          setError((e as Error).message === 'PUSH_DENIED' ? t('alerts.denied') : t('alerts.failed'));
        }
      }}
    >
      {outcome ? (
        <Alert severity="success" data-testid="alerts-done">
          {outcome
            .map((o) => (o.confirmationNeeded ? t('alerts.confirmSent') : t(`alerts.on.${o.channel}`)))
            .join(' ')}
        </Alert>
      ) : (
        <>
          <FormGroup>
            <FormLabel component="legend">{t('alerts.points')}</FormLabel>
            {points.map((p) => (
              <FormControlLabel
                key={p.key}
                control={<Checkbox name={`point-${p.key}`} defaultChecked />}
                label={p.name}
              />
            ))}
          </FormGroup>
          {canPush && (
            <FormControlLabel control={<Checkbox name="push" defaultChecked />} label={t('alerts.push')} />
          )}
          <TextField
            name="email"
            type="email"
            label={t('alerts.email')}
            helperText={t('alerts.emailHelp')}
            autoComplete="email"
          />
        </>
      )}
    </FormDialog>
  );
}
