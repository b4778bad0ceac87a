import { Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleOrganisation } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryField } from '../../../components/country-field.tsx';
import { createOrganisation, patchOrganisation } from '../api/organisations.ts';
import { fieldError, SaveError } from './form-state.tsx';

/** Creates an organisation (name, country, contact e-mail), or edits one when given (with its legal details for invoices). */
export function OrganisationForm({
  organisation,
  onDone,
}: {
  organisation?: ConsoleOrganisation;
  onDone?: (org: ConsoleOrganisation) => void;
}) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [form, setForm] = useState({
    name: organisation?.name ?? '',
    country: organisation?.country ?? '',
    contactEmail: organisation?.contactEmail ?? '',
  });
  /** Legal details printed on invoices (issue 29), edited once the organisation exists. */
  const [legal, setLegal] = useState({
    name: organisation?.legal?.name ?? '',
    address: organisation?.legal?.address ?? '',
    vatNumber: organisation?.legal?.vatNumber ?? '',
    vatRate: organisation?.legal?.vatRate == null ? '' : String(organisation.legal.vatRate),
  });
  const save = useMutation({
    mutationFn: () => {
      const body = { ...form, country: form.country.trim().toUpperCase() };
      const rate = legal.vatRate.trim().replace(',', '.');
      return organisation
        ? patchOrganisation(organisation.id, {
            ...body,
            legal: { ...legal, vatRate: rate === '' ? null : Number(rate) },
          })
        : createOrganisation(body);
    },
    onSuccess: (org) => {
      void client.invalidateQueries({ queryKey: ['console'] });
      onDone?.(org);
    },
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={organisation ? t('org.editTitle') : t('org.createTitle')}>
      <Stack spacing={2}>
        <SaveError error={save.error} />
        <TextField
          label={t('org.name')}
          value={form.name}
          onChange={set('name')}
          required
          error={!!fieldError(save.error, 'name')}
          helperText={fieldError(save.error, 'name')}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <CountryField
            label={t('org.country')}
            value={form.country}
            onChange={(country) => setForm((f) => ({ ...f, country }))}
            required
            error={!!fieldError(save.error, 'country')}
            helperText={fieldError(save.error, 'country')}
          />
          <TextField
            label={t('org.contactEmail')}
            type="email"
            value={form.contactEmail}
            onChange={set('contactEmail')}
            required
            fullWidth
            error={!!fieldError(save.error, 'contactEmail')}
            helperText={fieldError(save.error, 'contactEmail')}
          />
        </Stack>
        {organisation && (
          <>
            <Typography component="h3" variant="subtitle1">
              {t('org.legal')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('org.legalName')}
                value={legal.name}
                onChange={(e) => setLegal((l) => ({ ...l, name: e.target.value }))}
                fullWidth
                error={!!fieldError(save.error, 'legal.name')}
                helperText={fieldError(save.error, 'legal.name') ?? t('org.legalNameHelp')}
              />
              <TextField
                label={t('org.vatNumber')}
                value={legal.vatNumber}
                onChange={(e) => setLegal((l) => ({ ...l, vatNumber: e.target.value }))}
                fullWidth
                error={!!fieldError(save.error, 'legal.vatNumber')}
                helperText={fieldError(save.error, 'legal.vatNumber')}
              />
              <TextField
                label={t('org.vatRate')}
                value={legal.vatRate}
                onChange={(e) => setLegal((l) => ({ ...l, vatRate: e.target.value }))}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                error={!!fieldError(save.error, 'legal.vatRate')}
                helperText={fieldError(save.error, 'legal.vatRate') ?? t('org.vatRateHelp')}
              />
            </Stack>
            <TextField
              label={t('org.address')}
              value={legal.address}
              onChange={(e) => setLegal((l) => ({ ...l, address: e.target.value }))}
              multiline
              minRows={2}
              error={!!fieldError(save.error, 'legal.address')}
              helperText={fieldError(save.error, 'legal.address')}
            />
          </>
        )}
        <div>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {organisation ? t('form.save') : t('org.create')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
