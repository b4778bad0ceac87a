import { Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace, RacePublication } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CorrectionsNote } from '../../../components/corrections-note.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useEventDateTime } from '../../../lib/event-time.ts';
import { setRacePublication } from '../api/races.ts';
import { publicationPreviewQuery } from '../api/review.ts';
import { fieldError, SaveError } from './form-state.tsx';

/**
 * Results provisional until the timekeeper publishes them as official (issue 31), with an
 * optional protest window; spectators' tables say which. Review the anomalies first
 * (`GET console/races/{id}/review`). Issue 43: "Publish as official" asks first, showing what it
 * publishes (finishers, DNF, DNS, open anomalies, the protest window, dates in the event's zone);
 * going back to provisional asks why (a correction spectators see); the corrections since are
 * listed.
 */
export function PublicationForm({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [windowMinutes, setWindowMinutes] = useState('0');
  const [asking, setAsking] = useState<'publish' | 'reopen' | null>(null);
  const at = useEventDateTime(race.timeZone);
  const save = useMutation({
    mutationFn: (body: RacePublication) => setRacePublication(race.id, body),
    onSuccess: () => {
      setAsking(null);
      return client.invalidateQueries({ queryKey: ['console', 'race', race.id] });
    },
  });
  const minutes = windowMinutes.trim() === '' ? 0 : Number(windowMinutes);
  const ask = (e: FormEvent) => {
    e.preventDefault();
    save.reset();
    setAsking('publish');
  };
  const published = race.publication;
  return (
    <form onSubmit={ask} noValidate aria-label={t('publication.title')}>
      <SaveError error={asking ? null : save.error} />
      <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="publication-state">
        {published
          ? t('publication.official', {
              at: at(published.publishedAtMs),
              count: Math.round(published.protestWindowMs / 60_000),
            })
          : t('publication.provisional')}
      </Typography>
      {editable && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('publication.window')}
            value={windowMinutes}
            onChange={(e) => setWindowMinutes(e.target.value)}
            inputMode="numeric"
            error={!!fieldError(save.error, 'protestWindowMinutes')}
            helperText={fieldError(save.error, 'protestWindowMinutes')}
            sx={{ minWidth: 240 }}
          />
          <Button type="submit" variant="contained" disabled={save.isPending} sx={{ minHeight: 56 }}>
            {t('publication.publish')}
          </Button>
          {published && (
            <Button
              variant="text"
              color="error"
              disabled={save.isPending}
              onClick={() => {
                save.reset();
                setAsking('reopen');
              }}
              sx={{ minHeight: 56 }}
            >
              {t('publication.takeBack')}
            </Button>
          )}
        </Stack>
      )}
      <CorrectionsNote corrections={race.corrections} timeZone={race.timeZone} />
      {asking === 'publish' && (
        <PublishDialog
          race={race}
          minutes={minutes}
          busy={save.isPending}
          error={save.error}
          onClose={() => setAsking(null)}
          onConfirm={() => save.mutate({ official: true, protestWindowMinutes: minutes })}
        />
      )}
      {asking === 'reopen' && (
        <ReopenDialog
          race={race}
          busy={save.isPending}
          error={save.error}
          onClose={() => setAsking(null)}
          onConfirm={(reason) => save.mutate({ official: false, protestWindowMinutes: 0, reason })}
        />
      )}
    </form>
  );
}

/** What publishing would publish, asked before it is (issue 43). */
function PublishDialog({
  race,
  minutes,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  race: ConsoleRace;
  minutes: number;
  busy: boolean;
  error: unknown;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('console');
  const at = useEventDateTime(race.timeZone);
  const preview = useQuery(publicationPreviewQuery(race.id));
  const p = preview.data;
  const open = p ? p.onCourse + p.notStarted : 0;
  return (
    <FormDialog
      title={t('publication.askTitle', { race: race.name })}
      onClose={onClose}
      onSubmit={onConfirm}
      busy={busy}
      submitDisabled={!p}
      error={error ? <SaveError error={error} /> : undefined}
      submitLabel={t('publication.confirm')}
      cancelLabel={t('publication.cancel')}
    >
      <Typography>{t('publication.askIntro')}</Typography>
      {p && (
        <Typography component="ul" data-testid="publication-preview" sx={{ m: 0, pl: 2.5 }}>
          <li>{t('publication.finishers', { count: p.finishers })}</li>
          <li>{t('publication.dnf', { count: p.dnf })}</li>
          <li>{t('publication.dns', { count: p.dns })}</li>
          {p.dsq > 0 && <li>{t('publication.dsq', { count: p.dsq })}</li>}
          {open > 0 && <li>{t('publication.open', { count: open })}</li>}
          <li>
            <strong>
              {p.anomalies
                ? t('publication.anomalies', { count: p.anomalies })
                : t('publication.noAnomalies')}
            </strong>
          </li>
          <li>
            {minutes > 0
              ? t('publication.protest', { count: minutes, until: at(p.nowMs + minutes * 60_000) })
              : t('publication.noProtest', { at: at(p.nowMs) })}
          </li>
        </Typography>
      )}
    </FormDialog>
  );
}

/** Back to provisional, with the reason spectators read (issue 43). */
function ReopenDialog({
  race,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  race: ConsoleRace;
  busy: boolean;
  error: unknown;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const { t } = useTranslation('console');
  const [reason, setReason] = useState('');
  return (
    <FormDialog
      title={t('publication.reopenTitle', { race: race.name })}
      onClose={onClose}
      onSubmit={() => onConfirm(reason.trim())}
      busy={busy}
      submitDisabled={!reason.trim()}
      error={error ? <SaveError error={error} /> : undefined}
      submitLabel={t('publication.reopen')}
      submitColor="error"
      cancelLabel={t('publication.cancel')}
    >
      <TextField
        label={t('publication.takeBackReason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        autoFocus
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
    </FormDialog>
  );
}
