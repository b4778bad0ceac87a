import { Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace, RacePublication } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setRacePublication } from '../api/races.ts';
import { fieldError, SaveError } from './form-state.tsx';

/**
 * Results provisional until the timekeeper publishes them as official (issue 31), with an
 * optional protest window; spectators' tables say which. Review the anomalies first
 * (`GET console/races/{id}/review`).
 */
export function PublicationForm({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const [windowMinutes, setWindowMinutes] = useState('0');
  const save = useMutation({
    mutationFn: (body: RacePublication) => setRacePublication(race.id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['console', 'race', race.id] }),
  });
  const publish = (e: FormEvent) => {
    e.preventDefault();
    const minutes = windowMinutes.trim() === '' ? 0 : Number(windowMinutes);
    save.mutate({ official: true, protestWindowMinutes: minutes });
  };
  const published = race.publication;
  const at = (ms: number) =>
    new Date(ms).toLocaleString(i18n.language, {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone: race.timeZone,
    });
  return (
    <form onSubmit={publish} noValidate aria-label={t('publication.title')}>
      <SaveError error={save.error} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
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
              onClick={() => save.mutate({ official: false, protestWindowMinutes: 0 })}
              sx={{ minHeight: 56 }}
            >
              {t('publication.takeBack')}
            </Button>
          )}
        </Stack>
      )}
    </form>
  );
}
