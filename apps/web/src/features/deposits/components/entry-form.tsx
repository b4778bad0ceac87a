import { Box, MenuItem, TextField } from '@mui/material';
import type { DepositEntry, EntryInput, OfferRace } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/** The fields of an entry, in a dialog: add (a member's own, or the captain's) or edit. */
export function EntryDialog({
  open,
  title,
  races,
  entry,
  onClose,
  onSave,
}: {
  open: boolean;
  title: string;
  races: Pick<OfferRace, 'id' | 'name'>[];
  entry?: DepositEntry | null;
  onClose: () => void;
  onSave: (input: EntryInput) => Promise<unknown>;
}) {
  const { t } = useTranslation('deposits');
  const [error, setError] = useState<string | null>(null);
  const handleSubmit = async (element: HTMLFormElement) => {
    const form = new FormData(element);
    const value = (k: string) => String(form.get(k) ?? '').trim();
    const input: EntryInput = {
      raceId: value('raceId') || undefined,
      firstName: value('firstName'),
      lastName: value('lastName'),
      ...(value('gender') ? { gender: value('gender') as 'M' | 'F' | 'X' } : {}),
      ...(value('birthDate') ? { birthDate: value('birthDate') } : {}),
      email: value('email'),
      nationality: value('nationality'),
    };
    setError(null);
    try {
      await onSave(input);
      onClose();
    } catch (e) {
      setError(
        e instanceof ApiError ? t(`errors.${e.code}`, { defaultValue: e.message }) : t('errors.generic'),
      );
    }
  };
  return (
    <FormDialog
      open={open}
      title={title}
      onClose={onClose}
      onSubmit={handleSubmit}
      error={error}
      submitLabel={t('actions.save')}
      cancelLabel={t('actions.cancel')}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          select
          name="raceId"
          label={t('entry.race')}
          defaultValue={entry?.raceId ?? races[0]?.id ?? ''}
          required
        >
          {races.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select name="gender" label={t('entry.gender')} defaultValue={entry?.gender ?? ''}>
          <MenuItem value="">—</MenuItem>
          {(['F', 'M', 'X'] as const).map((g) => (
            <MenuItem key={g} value={g}>
              {t(`entry.genders.${g}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          name="firstName"
          label={t('entry.firstName')}
          defaultValue={entry?.firstName ?? ''}
          autoComplete="given-name"
        />
        <TextField
          name="lastName"
          label={t('entry.lastName')}
          defaultValue={entry?.lastName ?? ''}
          autoComplete="family-name"
        />
        <TextField
          name="birthDate"
          type="date"
          label={t('entry.birthDate')}
          defaultValue={entry?.birthDate ?? ''}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          name="nationality"
          label={t('entry.nationality')}
          defaultValue={entry?.nationality ?? ''}
          slotProps={{ htmlInput: { maxLength: 3 } }}
        />
        <TextField
          name="email"
          type="email"
          label={t('entry.email')}
          defaultValue={entry?.email ?? ''}
          sx={{ gridColumn: { sm: 'span 2' } }}
        />
      </Box>
    </FormDialog>
  );
}
