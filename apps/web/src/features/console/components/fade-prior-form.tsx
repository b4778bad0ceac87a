import { Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileDrop } from '../../../components/file-drop.tsx';
import { deleteFadePrior, setFadePrior } from '../api/races.ts';
import { fieldError, SaveError } from './form-state.tsx';

/**
 * The previous editions the finish prediction starts from (issue 19): a CSV of half and finish
 * times, or an earlier race in Tempora by its id; without them, a general marathon model.
 */
export function FadePriorForm({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const [fromRaceId, setFromRaceId] = useState('');
  const done = () => client.invalidateQueries({ queryKey: ['console', 'race', race.id] });
  const save = useMutation({
    mutationFn: (body: { csv: string } | { fromRaceId: string }) => setFadePrior(race.id, body),
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: () => deleteFadePrior(race.id), onSuccess: done });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (fromRaceId.trim()) save.mutate({ fromRaceId: fromRaceId.trim() });
  };
  const prior = race.fadePrior;
  const source = prior?.source === 'csv' ? t('prediction.fromCsv') : (prior?.source ?? '');
  return (
    <form onSubmit={submit} noValidate aria-label={t('prediction.title')}>
      <SaveError error={save.error ?? remove.error} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {prior
          ? t('prediction.current', { source, runners: prior.runners.toLocaleString(i18n.language) })
          : t('prediction.general')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FileDrop
          label={t('prediction.upload')}
          inputLabel={t('prediction.file')}
          accept=".csv,.txt,text/csv,text/plain"
          inputTestId="fade-prior-file"
          disabled={!editable || save.isPending}
          buttonProps={{ sx: { minHeight: 56, flexGrow: { xs: 1, sm: 0 } } }}
          onFile={async (file) => save.mutate({ csv: await file.text() })}
        />
        <TextField
          label={t('prediction.fromRace')}
          value={fromRaceId}
          onChange={(e) => setFromRaceId(e.target.value)}
          disabled={!editable}
          error={!!fieldError(save.error, 'fromRaceId', 'csv')}
          // A short label and the rest beneath (issue 43: the French label was cut on a phone).
          helperText={fieldError(save.error, 'fromRaceId', 'csv') ?? t('prediction.fromRaceHelp')}
          sx={{ minWidth: { sm: 340 } }}
        />
        {editable && (
          <Button
            type="submit"
            variant="contained"
            disabled={save.isPending || !fromRaceId.trim()}
            sx={{ minHeight: 56 }}
          >
            {t('prediction.use')}
          </Button>
        )}
        {editable && prior && (
          <Button
            color="error"
            variant="text"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
            sx={{ minHeight: 56 }}
          >
            {t('prediction.remove')}
          </Button>
        )}
      </Stack>
    </form>
  );
}
