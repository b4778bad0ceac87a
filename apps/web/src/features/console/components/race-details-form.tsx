import { mdiDelete, mdiPlus } from '@mdi/js';
import { Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { updateRace } from '../api/races.ts';
import { fieldError, SaveError } from './form-state.tsx';
import { kmToMetres, metresToKm, RaceFields } from './race-fields.tsx';

let nextUid = 0;

/** A race's name, date, distance, start type, gun time and per-wave gun times (event's zone). */
export function RaceDetailsForm({ race, editable }: { race: ConsoleRace; editable: boolean }) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const [form, setForm] = useState({
    name: race.name,
    date: race.date,
    distanceKm: metresToKm(race.distanceM, i18n.language),
    startType: race.startType,
    gunTime: race.gunTime ?? '',
    waves: race.waves.map((w) => ({ uid: ++nextUid, id: w.id, name: w.name, gunTime: w.gunTime })),
  });
  const save = useMutation({
    mutationFn: () =>
      updateRace(race.id, {
        name: form.name,
        date: form.date,
        distanceM: kmToMetres(form.distanceKm),
        startType: form.startType,
        gunTime: form.gunTime || null,
        waves: form.startType === 'waves' ? form.waves.map(({ uid: _uid, ...w }) => w) : [],
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['console'] }),
  });
  const setWave = (k: number, patch: Partial<(typeof form.waves)[number]>) =>
    setForm((f) => ({ ...f, waves: f.waves.map((w, j) => (j === k ? { ...w, ...patch } : w)) }));
  const err = (name: string) => fieldError(save.error, name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('race.details')}>
      <Stack spacing={2}>
        <SaveError error={save.error} />
        <RaceFields
          form={form}
          onChange={(name, value) => setForm((f) => ({ ...f, [name]: value }))}
          error={err}
          timeZone={race.timeZone}
          disabled={!editable}
        />
        {form.startType === 'waves' && (
          <Box
            component="fieldset"
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, m: 0, minWidth: 0 }}
          >
            <Typography component="legend" sx={{ px: 0.5 }}>
              {t('race.waves')}
            </Typography>
            {err('waves') && <Typography color="error">{err('waves')}</Typography>}
            <Stack spacing={1.5}>
              {form.waves.map((w, k) => (
                <Box
                  key={w.uid}
                  sx={{
                    display: 'grid',
                    gap: 1,
                    alignItems: 'start',
                    gridTemplateColumns: { xs: '80px 1fr auto', sm: '90px 1fr 160px auto' },
                    gridTemplateAreas: { xs: '"id name del" "time time ."', sm: '"id name time del"' },
                  }}
                >
                  <TextField
                    size="small"
                    label={t('race.waveId')}
                    value={w.id}
                    onChange={(e) => setWave(k, { id: e.target.value })}
                    disabled={!editable}
                    sx={{ gridArea: 'id' }}
                    error={!!err(`waves.${k}.id`)}
                  />
                  <TextField
                    size="small"
                    label={t('race.waveName')}
                    value={w.name}
                    onChange={(e) => setWave(k, { name: e.target.value })}
                    disabled={!editable}
                    sx={{ gridArea: 'name' }}
                  />
                  <TextField
                    size="small"
                    type="time"
                    label={t('race.gunTime')}
                    value={w.gunTime}
                    onChange={(e) => setWave(k, { gunTime: e.target.value })}
                    disabled={!editable}
                    slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
                    sx={{ gridArea: 'time' }}
                    error={!!err(`waves.${k}.gunTime`)}
                  />
                  <IconButton
                    aria-label={t('race.removeWave', { id: w.id })}
                    onClick={() => setForm((f) => ({ ...f, waves: f.waves.filter((_, j) => j !== k) }))}
                    disabled={!editable}
                    sx={{ gridArea: 'del' }}
                  >
                    <MdiIcon path={mdiDelete} />
                  </IconButton>
                </Box>
              ))}
              <div>
                <Button
                  startIcon={<MdiIcon path={mdiPlus} />}
                  disabled={!editable}
                  onClick={() =>
                    setForm((f) => ({
                      ...f,
                      waves: [
                        ...f.waves,
                        {
                          uid: ++nextUid,
                          id: `W${f.waves.length + 1}`,
                          name: '',
                          gunTime: f.gunTime || '09:00',
                        },
                      ],
                    }))
                  }
                >
                  {t('race.addWave')}
                </Button>
              </div>
            </Stack>
          </Box>
        )}
        {editable && (
          <div>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              {t('form.save')}
            </Button>
          </div>
        )}
      </Stack>
    </form>
  );
}
