import { Alert, List, ListItem, ListItemText, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { ParticipantBulk, ParticipantBulkOutcome, RaceSummary } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useBulkUpdate } from '../api/participants.ts';
import { errorText } from './participant-dialogs.tsx';

const KEEP = '';
/** A select left at "Unchanged" shows it (an empty value is otherwise drawn blank). */
const keepShown = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

/**
 * One change for the selected runners (issue 29): race, category, status, club — each left as it
 * is unless chosen. One request; the answer says how many changed and lists the refused runners
 * with the reason (their bib taken in the other race, passings already read).
 */
export function BulkEditDialog({
  eventId,
  ids,
  races,
  onClose,
  onSaved,
}: {
  eventId: string;
  ids: readonly string[];
  races: readonly RaceSummary[];
  onClose(): void;
  onSaved(outcome: ParticipantBulkOutcome): void;
}) {
  const { t } = useTranslation('participants');
  const bulk = useBulkUpdate(eventId);
  const [race, setRace] = useState(KEEP);
  const [category, setCategory] = useState(KEEP);
  const [status, setStatus] = useState(KEEP);
  const [club, setClub] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ParticipantBulkOutcome | null>(null);
  const categories = races.filter((r) => !race || r.id === race).flatMap((r) => r.categories);
  const patch: ParticipantBulk['patch'] = {
    ...(race ? { raceId: race } : {}),
    ...(category ? { category: category === '-' ? null : category } : {}),
    ...(status ? { status: status as 'registered' } : {}),
    ...(club?.trim() ? { club: club.trim() } : {}),
  };
  const submit = async () => {
    const result = await bulk.mutateAsync({ ids: [...ids], patch });
    setOutcome(result);
    onSaved(result);
  };
  return (
    <FormDialog
      title={t('bulk.title', { count: ids.length })}
      onClose={onClose}
      onSubmit={submit}
      busy={bulk.isPending}
      submitDisabled={Object.keys(patch).length === 0}
      error={bulk.isError && errorText(bulk.error)}
      submitLabel={outcome ? null : t('bulk.apply', { count: ids.length })}
      cancelLabel={outcome ? t('bulk.close') : t('bulk.cancel')}
    >
      {outcome ? (
        <Stack spacing={1.5}>
          <Alert severity={outcome.refused.length ? 'warning' : 'success'} role="status">
            {t('bulk.done', { count: outcome.updated })}{' '}
            {outcome.unchanged > 0 && t('bulk.unchanged', { count: outcome.unchanged })}{' '}
            {outcome.refused.length > 0 && t('bulk.refused', { count: outcome.refused.length })}
          </Alert>
          {outcome.refused.length > 0 && (
            <List dense aria-label={t('bulk.refusedList')}>
              {outcome.refused.map((r) => (
                <ListItem key={r.id} disableGutters>
                  <ListItemText
                    primary={`${r.bib ? `${r.bib} · ` : ''}${r.name}`}
                    secondary={t(`bulk.reasons.${r.code}`, { defaultValue: r.message })}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Stack>
      ) : (
        <>
          <Typography color="text.secondary">{t('bulk.help')}</Typography>
          <TextField
            select
            slotProps={keepShown}
            label={t('fields.raceId')}
            value={race}
            onChange={(e) => {
              setRace(e.target.value);
              setCategory(KEEP);
            }}
          >
            <MenuItem value={KEEP}>{t('bulk.keep')}</MenuItem>
            {races.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            slotProps={keepShown}
            label={t('fields.category')}
            value={category}
            onChange={(e) => setCategory(e.target.value)}
          >
            <MenuItem value={KEEP}>{t('bulk.keep')}</MenuItem>
            <MenuItem value="-">{t('bulk.byAge')}</MenuItem>
            {categories.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            slotProps={keepShown}
            label={t('fields.status')}
            value={status}
            onChange={(e) => setStatus(e.target.value)}
          >
            <MenuItem value={KEEP}>{t('bulk.keep')}</MenuItem>
            {(['registered', 'DNS', 'DNF', 'DSQ'] as const).map((s) => (
              <MenuItem key={s} value={s}>
                {t(`status.${s}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('fields.club')}
            value={club ?? ''}
            placeholder={t('bulk.keep')}
            slotProps={{ inputLabel: { shrink: true } }}
            onChange={(e) => setClub(e.target.value)}
            helperText={t('bulk.clubHelp')}
          />
        </>
      )}
    </FormDialog>
  );
}
