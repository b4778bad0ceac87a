import { Alert, Button, Checkbox, FormControlLabel, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import type { RacedayRace } from '../api/raceday.ts';
import type { OfficialHold } from '../hooks/use-desk-queue.ts';

/** A race's name from its id (the desk's frame), else "this race". */
export function useRaceName(races: readonly Pick<RacedayRace, 'id' | 'name'>[]) {
  const { t } = useTranslation('raceday');
  return (raceId: string | null | undefined) =>
    races.find((r) => r.id === raceId)?.name ?? t('official.aRace');
}

/**
 * The desk says which races are official before anyone types (issue 43): a change of their
 * results needs the organiser's confirmation and spectators see it as a correction.
 */
export function OfficialBanner({ races }: { races: readonly RacedayRace[] }) {
  const { t } = useTranslation('raceday');
  const official = races.filter((r) => r.official);
  if (!official.length) return null;
  return (
    <Alert severity="warning" data-testid="official-banner">
      {t('official.banner', { races: official.map((r) => r.name).join(', ') })}
    </Alert>
  );
}

/**
 * Entries held because their race is official (issue 43): sent as a correction with a reason the
 * spectators read (the organiser only), or dropped. Nothing changes before one or the other.
 */
export function OfficialHoldDialog({
  hold,
  count,
  raceName,
  onConfirm,
  onDiscard,
}: {
  hold: OfficialHold;
  count: number;
  raceName: string;
  onConfirm: (reason: string) => Promise<unknown>;
  onDiscard: () => Promise<unknown>;
}) {
  const { t } = useTranslation('raceday');
  const [reason, setReason] = useState('');
  const [open, setOpen] = useState(true);
  return (
    <FormDialog
      open={open}
      title={t('official.title', { race: raceName })}
      onClose={() => setOpen(false)}
      onSubmit={() => onConfirm(reason.trim())}
      submitLabel={hold.needsOrganiser ? undefined : t('official.confirm')}
      submitDisabled={!reason.trim()}
      cancelLabel={t('common.cancel')}
      error={hold.needsOrganiser ? t('official.needsOrganiser') : undefined}
      actions={
        <Button color="error" onClick={() => void onDiscard()}>
          {t('official.discard')}
        </Button>
      }
    >
      <Alert severity="warning">{t('official.body')}</Alert>
      <Alert severity="info" icon={false}>
        {t('official.held', { count })}
      </Alert>
      {!hold.needsOrganiser && (
        <TextField
          label={t('official.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required
          autoFocus
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
      )}
    </FormDialog>
  );
}

/**
 * A correction or status refused because the race is official (409 `RACE_OFFICIAL`, issue 43):
 * the refusal in the reader's language and a box to confirm the change as a correction (the
 * request then carries `correction` with the reason already typed).
 */
export function useOfficialConfirm(error: unknown, raceName: (id: string | null | undefined) => string) {
  const { t } = useTranslation('raceday');
  const [confirmed, setConfirmed] = useState(false);
  const refused = error instanceof ApiError && error.code === 'RACE_OFFICIAL';
  const message = refused
    ? t('official.refused', { race: error.fieldErrors.race?.[0] ?? raceName(error.fieldErrors.raceId?.[0]) })
    : error instanceof ApiError && error.code === 'CORRECTION_NEEDS_ORGANISER'
      ? t('official.needsOrganiser')
      : null;
  const asked = refused || confirmed;
  return {
    /** The error to show: the refusal in words, else the caller's own. */
    message,
    /** Adds `correction` to a body once the box is ticked. */
    withCorrection: <B extends object>(body: B, reason: string) =>
      asked && confirmed ? { ...body, correction: { reason } } : body,
    box: asked ? (
      <FormControlLabel
        control={<Checkbox checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />}
        label={t('official.asCorrection')}
      />
    ) : null,
  };
}
