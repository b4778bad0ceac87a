import { Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ConsoleRace, reportKinds } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createReport } from '../api/races.ts';
import { fieldError, SaveError } from './form-state.tsx';

type Kind = (typeof reportKinds)[number];

/** A filtered report added by the organiser: a club, a wave, a gender or a category. */
export function ReportCreateForm({ race }: { race: ConsoleRace }) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const empty = {
    key: '',
    en: '',
    fr: '',
    kind: 'ranking' as Kind,
    club: '',
    wave: '',
    gender: '',
    category: '',
  };
  const [form, setForm] = useState(empty);
  const save = useMutation({
    mutationFn: () =>
      createReport(race.id, {
        key: form.key,
        name: { en: form.en, fr: form.fr || form.en },
        kind: form.kind,
        filter: {
          ...(form.club ? { club: form.club } : {}),
          ...(form.wave ? { wave: form.wave } : {}),
          ...(form.gender ? { gender: form.gender as 'M' | 'F' | 'X' } : {}),
          ...(form.category ? { category: form.category } : {}),
        },
      }),
    onSuccess: () => {
      setForm(empty);
      void client.invalidateQueries({ queryKey: ['console', 'race', race.id, 'reports'] });
    },
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const err = (name: string) => fieldError(save.error, name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="report-add">
      <Typography variant="h6" component="h3" id="report-add" sx={{ mb: 2 }}>
        {t('reports.add')}
      </Typography>
      <form onSubmit={submit} noValidate aria-labelledby="report-add">
        <Stack spacing={2}>
          <SaveError error={save.error} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label={t('reports.key')}
              value={form.key}
              onChange={set('key')}
              required
              error={!!err('key')}
              helperText={err('key') ?? t('reports.keyHelp')}
            />
            <TextField
              select
              label={t('reports.kind')}
              value={form.kind}
              onChange={set('kind')}
              sx={{ minWidth: 200 }}
            >
              {reportKinds.map((k) => (
                <MenuItem key={k} value={k}>
                  {t(`reports.kinds.${k}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label={t('reports.nameEn')}
              value={form.en}
              onChange={set('en')}
              required
              fullWidth
              error={!!err('name.en')}
              helperText={err('name.en')}
            />
            <TextField
              label={t('reports.nameFr')}
              value={form.fr}
              onChange={set('fr')}
              fullWidth
              error={!!err('name.fr')}
              helperText={err('name.fr')}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label={t('reports.filter.club')} value={form.club} onChange={set('club')} fullWidth />
            <TextField
              select
              label={t('reports.filter.wave')}
              value={form.wave}
              onChange={set('wave')}
              fullWidth
              disabled={race.waves.length === 0}
            >
              <MenuItem value="">{t('reports.any')}</MenuItem>
              {race.waves.map((w) => (
                <MenuItem key={w.id} value={w.id}>
                  {w.name || w.id}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={t('reports.filter.gender')}
              value={form.gender}
              onChange={set('gender')}
              fullWidth
            >
              <MenuItem value="">{t('reports.any')}</MenuItem>
              {(['F', 'M', 'X'] as const).map((g) => (
                <MenuItem key={g} value={g}>
                  {t(`gender.${g}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={t('reports.filter.category')}
              value={form.category}
              onChange={set('category')}
              fullWidth
              disabled={race.categories.length === 0}
            >
              <MenuItem value="">{t('reports.any')}</MenuItem>
              {race.categories.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <div>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              {t('reports.create')}
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
