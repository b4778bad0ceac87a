import { MenuItem, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleContext, ConsoleRace } from '@tempora/contracts';
import { foldText } from '@tempora/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { createRace } from '../api/races.ts';
import { fieldError, useSaveErrorMessage } from './form-state.tsx';
import { kmToMetres, RaceFields, type RaceFieldValues } from './race-fields.tsx';

/** A key from a name: `Marathon 42 km` → `marathon-42-km`. */
export const keyFrom = (name: string) =>
  foldText(name.normalize('NFKC'))
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

/** A new race in one of the event's contexts; its gun time is typed in the event's time zone. */
export function RaceCreateDialog({
  contexts,
  defaultDate,
  timeZone,
  onClose,
  onCreated,
}: {
  contexts: ConsoleContext[];
  defaultDate: string;
  timeZone: string;
  onClose: () => void;
  onCreated: (race: ConsoleRace) => void;
}) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [form, setForm] = useState({
    db: contexts[0]?.db ?? '',
    id: '',
    name: '',
    date: defaultDate,
    distanceKm: '',
    startType: 'mass' as RaceFieldValues['startType'],
    gunTime: '',
  });
  const save = useMutation({
    mutationFn: () =>
      createRace(form.db, {
        id: form.id || keyFrom(form.name),
        name: form.name,
        date: form.date,
        distanceM: kmToMetres(form.distanceKm),
        startType: form.startType,
        gunTime: form.gunTime || null,
        ...(form.startType === 'waves' && form.gunTime
          ? { waves: [{ id: 'W1', name: '', gunTime: form.gunTime }] }
          : {}),
      }),
    onSuccess: (race) => {
      void client.invalidateQueries({ queryKey: ['console'] });
      onCreated(race);
    },
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const err = (name: string) => fieldError(save.error, name);
  const errorMessage = useSaveErrorMessage(save.error);
  return (
    <FormDialog
      title={t('race.createTitle')}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      busy={save.isPending}
      submitDisabled={!form.db}
      error={errorMessage}
      submitLabel={t('race.create')}
      cancelLabel={t('form.cancel')}
    >
      <TextField select label={t('context.one')} value={form.db} onChange={set('db')} required>
        {contexts.map((c) => (
          <MenuItem key={c.db} value={c.db}>
            {c.name} ({c.db})
          </MenuItem>
        ))}
      </TextField>
      <RaceFields
        form={form}
        onChange={(name, value) => setForm((f) => ({ ...f, [name]: value }))}
        error={err}
        timeZone={timeZone}
        required
        between={
          <TextField
            label={t('race.id')}
            value={form.id}
            onChange={set('id')}
            placeholder={keyFrom(form.name)}
            error={!!err('id')}
            helperText={err('id') ?? t('race.idHelp')}
          />
        }
      />
    </FormDialog>
  );
}
