import { Alert, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { pointName } from '../../../lib/point-name.ts';
import { type DeskRead, type RacedayPoint, useRacedayMutation } from '../api/raceday.ts';
import { formatClock, parseTimeOfDay } from '../time.ts';
import { useOfficialConfirm } from './official-hold.tsx';

export type CorrectionKind = 'void' | 'restore' | 'edit' | 'add';

/** One correction with its reason (void, restore, change time or point, add a missing read). */
export function CorrectionDialog({
  db,
  kind,
  read,
  points,
  timeZone,
  onClose,
}: {
  db: string;
  kind: CorrectionKind;
  read: DeskRead | null;
  points: RacedayPoint[];
  timeZone?: string | undefined;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('raceday');
  const [reason, setReason] = useState('');
  const [time, setTime] = useState(read ? formatClock(read.timeMs, timeZone) : '');
  const [pointKey, setPointKey] = useState(read?.pointKey ?? points[points.length - 1]?.key ?? '');
  const [bib, setBib] = useState('');
  const [invalid, setInvalid] = useState(false);
  const correct = useRacedayMutation<Record<string, unknown>>(db, '/corrections');
  // Issue 43: a read of an official race changes only as a correction the organiser confirms.
  const official = useOfficialConfirm(correct.error, () => t('official.aRace'));
  const submit = () => {
    const base = read?.timeMs ?? Date.now();
    const timeMs = time ? parseTimeOfDay(time, base, timeZone) : null;
    if ((kind === 'edit' || kind === 'add') && timeMs === null) return setInvalid(true);
    const body =
      kind === 'void' || kind === 'restore'
        ? { action: kind, passingId: read!.id, reason }
        : kind === 'edit'
          ? { action: 'edit', passingId: read!.id, timeMs, pointKey, reason }
          : { action: 'add', bib, pointKey, timeMs, reason };
    correct.mutate({ body: official.withCorrection(body, reason) }, { onSuccess: onClose });
  };
  const error = correct.error instanceof ApiError ? (official.message ?? correct.error.message) : null;
  return (
    <FormDialog
      title={t(`correct.${kind}Title`)}
      onClose={onClose}
      onSubmit={submit}
      busy={correct.isPending}
      error={error}
      submitLabel={t(`correct.${kind}`)}
      submitColor={kind === 'void' ? 'error' : 'primary'}
      cancelLabel={t('common.cancel')}
      maxWidth="xs"
      validate
    >
      {read && (
        <Alert severity="info" icon={false}>
          {read.runner ? `${read.runner.bib} ${read.runner.name}` : (read.chip ?? read.bib)} ·{' '}
          {pointName(points.find((p) => p.key === read.pointKey) ?? { name: read.pointKey }, i18n.language)} ·{' '}
          {formatClock(read.timeMs, timeZone)}
        </Alert>
      )}
      {kind === 'add' && (
        <TextField label={t('desk.bib')} value={bib} onChange={(e) => setBib(e.target.value)} required />
      )}
      {(kind === 'edit' || kind === 'add') && (
        <>
          <TextField
            label={t('correct.time')}
            value={time}
            onChange={(e) => setTime(e.target.value)}
            error={invalid}
            helperText={t('desk.typedTimeHelp')}
            required
          />
          <TextField
            select
            label={t('desk.point')}
            value={pointKey}
            onChange={(e) => setPointKey(e.target.value)}
          >
            {points.map((p) => (
              <MenuItem key={p.key} value={p.key}>
                {pointName(p, i18n.language)}
              </MenuItem>
            ))}
          </TextField>
        </>
      )}
      <TextField
        label={t('correct.reason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        autoFocus
      />
      {official.box}
    </FormDialog>
  );
}
