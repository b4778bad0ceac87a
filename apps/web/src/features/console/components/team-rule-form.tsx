import { Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setTeamRule } from '../api/races.ts';
import { fieldError, SaveError } from './form-state.tsx';

/** The team ranking rule: the best N finishers count, teams need at least M runners. */
export function TeamRuleForm({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [best, setBest] = useState(String(race.teamRule.best));
  const [min, setMin] = useState(String(race.teamRule.minMembers));
  const save = useMutation({
    mutationFn: () => setTeamRule(race.id, { best: Number(best), minMembers: Number(min) }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['console', 'race', race.id] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('team.title')}>
      <SaveError error={save.error} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('team.help', { best: race.teamRule.best, min: race.teamRule.minMembers })}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label={t('team.best')}
          value={best}
          onChange={(e) => setBest(e.target.value)}
          disabled={!editable}
          inputMode="numeric"
          error={!!fieldError(save.error, 'best')}
          helperText={fieldError(save.error, 'best')}
        />
        <TextField
          label={t('team.minMembers')}
          value={min}
          onChange={(e) => setMin(e.target.value)}
          disabled={!editable}
          inputMode="numeric"
          error={!!fieldError(save.error, 'minMembers')}
          helperText={fieldError(save.error, 'minMembers')}
        />
        {editable && (
          <Button type="submit" variant="contained" disabled={save.isPending} sx={{ minHeight: 56 }}>
            {t('form.save')}
          </Button>
        )}
      </Stack>
    </form>
  );
}
