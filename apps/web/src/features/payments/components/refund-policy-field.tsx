import { mdiDelete, mdiPlus } from '@mdi/js';
import { Box, Button, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { DepositSettings } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { fieldError } from '../../../lib/api-client.ts';

type Policy = DepositSettings['refundPolicy'];

/**
 * The refund policy (issue 29: it was typed as `2026-05-01=100, 2026-05-15=50`): full, none, or
 * a table of dates and the percentage refunded until each, rows added and removed; the server's
 * errors show on the row's own field.
 */
export function RefundPolicyField({
  value,
  onChange,
  error,
}: {
  value: Policy;
  onChange: (policy: Policy) => void;
  /** The failed save (its field errors `refundPolicy.tiers.{k}.until|percent`). */
  error: unknown;
}) {
  const { t } = useTranslation('payments');
  const tiers = value.kind === 'tiers' ? value.tiers : [];
  const setTier = (k: number, tier: Partial<(typeof tiers)[number]>) =>
    onChange({ kind: 'tiers', tiers: tiers.map((x, i) => (i === k ? { ...x, ...tier } : x)) });
  const fe = (name: string) => {
    const message = fieldError(error, name);
    return message ? { error: true, helperText: message } : {};
  };
  return (
    <Box role="group" aria-label={t('settings.policy')}>
      <TextField
        select
        label={t('settings.policy')}
        value={value.kind}
        onChange={(e) => {
          const kind = e.target.value as Policy['kind'];
          onChange(
            kind === 'tiers'
              ? { kind, tiers: tiers.length ? tiers : [{ until: '', percent: 100 }] }
              : { kind },
          );
        }}
        size="small"
        sx={{ minWidth: 240, mb: 1 }}
        {...fe('refundPolicy.kind')}
      >
        <MenuItem value="full">{t('settings.policyFull')}</MenuItem>
        <MenuItem value="none">{t('settings.policyNone')}</MenuItem>
        <MenuItem value="tiers">{t('settings.policyTiers')}</MenuItem>
      </TextField>
      {value.kind === 'tiers' && (
        <Stack spacing={1}>
          {tiers.map((tier, k) => (
            <Stack
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place.
              key={k}
              direction="row"
              spacing={1}
              sx={{ alignItems: 'flex-start' }}
              data-testid={`refund-tier-${k}`}
            >
              <TextField
                type="date"
                label={t('settings.tierUntil')}
                value={tier.until}
                onChange={(e) => setTier(k, { until: e.target.value })}
                size="small"
                slotProps={{ inputLabel: { shrink: true } }}
                {...fe(`refundPolicy.tiers.${k}.until`)}
              />
              <TextField
                type="number"
                label={t('settings.tierPercent')}
                value={Number.isFinite(tier.percent) ? tier.percent : ''}
                onChange={(e) => setTier(k, { percent: Number(e.target.value) })}
                size="small"
                slotProps={{ htmlInput: { min: 0, max: 100, step: 1 } }}
                sx={{ width: 140 }}
                {...fe(`refundPolicy.tiers.${k}.percent`)}
              />
              <IconButton
                aria-label={t('settings.tierRemove')}
                onClick={() => onChange({ kind: 'tiers', tiers: tiers.filter((_, i) => i !== k) })}
                disabled={tiers.length === 1}
              >
                <MdiIcon path={mdiDelete} />
              </IconButton>
            </Stack>
          ))}
          <Box>
            <Button
              startIcon={<MdiIcon path={mdiPlus} />}
              onClick={() => onChange({ kind: 'tiers', tiers: [...tiers, { until: '', percent: 0 }] })}
              disabled={tiers.length >= 10}
            >
              {t('settings.tierAdd')}
            </Button>
          </Box>
          <Typography variant="body2" color="text.secondary">
            {t('settings.policyHelp')}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}
