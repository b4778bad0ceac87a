import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  Grid,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleEventDetail, EventUpdate } from '@tempora/contracts';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FileDrop } from '../../../components/file-drop.tsx';
import { TimeZoneField } from '../../../components/time-zone-field.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { deleteEvent, deleteLogo, updateEvent, uploadLogo, useEventLogo } from '../api/events.ts';
import { useOrgAbility } from '../use-org-ability.ts';
import { announceSaved, fieldError, SaveError } from './form-state.tsx';

/** Status moves the server allows (events/routes.ts STATUS_MOVES), the current one first. */
const MOVES: Record<string, string[]> = {
  upcoming: ['upcoming', 'live', 'finished'],
  live: ['live', 'upcoming', 'finished'],
  finished: ['finished', 'live'],
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-label={title}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Paper>
  );
}

/** The event editor (issue 14): details, place, time zone, branding, visibility, status, deletion. */
export function EventEditor({ event }: { event: ConsoleEventDetail }) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const navigate = useNavigate();
  const { can } = useOrgAbility(event.organisationId);
  const editable = can('update', 'Event');
  const [form, setForm] = useState({
    name: event.name,
    startDate: event.startDate,
    endDate: event.endDate,
    place: event.place,
    placeLat: event.placeLat === null ? '' : String(event.placeLat),
    placeLon: event.placeLon === null ? '' : String(event.placeLon),
    timeZone: event.timeZone,
    accentColor: event.accentColor ?? '',
    tagline: event.tagline,
    visibility: event.visibility,
    status: event.status,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['console'] });
  const save = useMutation({
    mutationFn: () => {
      const num = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')));
      const patch: EventUpdate = {
        name: form.name,
        startDate: form.startDate,
        endDate: form.endDate,
        place: form.place,
        placeLat: num(form.placeLat),
        placeLon: num(form.placeLon),
        timeZone: form.timeZone,
        accentColor: form.accentColor || null,
        tagline: form.tagline,
        visibility: form.visibility,
        status: form.status,
      };
      return updateEvent(event.id, patch);
    },
    onSuccess: () => {
      announceSaved();
      return refresh();
    },
  });
  const logoSrc = useEventLogo(event.id, event.logoUrl);
  const logo = useMutation({
    mutationFn: (file: File | null) => (file ? uploadLogo(event.id, file) : deleteLogo(event.id)),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => deleteEvent(event.id),
    onSuccess: () => {
      void refresh();
      navigate(consolePaths.organisation(event.organisationId));
    },
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const err = (...names: string[]) => fieldError(save.error, ...names);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('event.editorTitle')}>
      <Stack spacing={2}>
        {!editable && <Alert severity="info">{t('readOnly')}</Alert>}
        <SaveError error={save.error} />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <Section title={t('event.details')}>
              <TextField
                label={t('event.name')}
                value={form.name}
                onChange={set('name')}
                required
                disabled={!editable}
                error={!!err('name')}
                helperText={err('name')}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  type="date"
                  label={t('event.startDate')}
                  value={form.startDate}
                  onChange={set('startDate')}
                  disabled={!editable}
                  slotProps={{ inputLabel: { shrink: true } }}
                  fullWidth
                  error={!!err('startDate')}
                  helperText={err('startDate')}
                />
                <TextField
                  type="date"
                  label={t('event.endDate')}
                  value={form.endDate}
                  onChange={set('endDate')}
                  disabled={!editable}
                  slotProps={{ inputLabel: { shrink: true } }}
                  fullWidth
                  error={!!err('endDate')}
                  helperText={err('endDate')}
                />
              </Stack>
              <TextField
                select
                label={t('event.status')}
                value={form.status}
                onChange={set('status')}
                disabled={!editable}
                error={!!err('status')}
                helperText={err('status') ?? t('event.statusHelp')}
              >
                {MOVES[event.status]!.map((s) => (
                  <MenuItem key={s} value={s}>
                    {t(`status.${s}`)}
                  </MenuItem>
                ))}
              </TextField>
              <FormControlLabel
                control={
                  <Switch
                    checked={form.visibility === 'public'}
                    onChange={(e) =>
                      setForm((f) => ({ ...f, visibility: e.target.checked ? 'public' : 'draft' }))
                    }
                    disabled={!editable}
                  />
                }
                label={t('event.published')}
              />
              <Typography color="text.secondary" sx={{ mt: '0 !important' }}>
                {t(form.visibility === 'public' ? 'event.publicHelp' : 'event.draftHelp')}
              </Typography>
            </Section>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Section title={t('event.placeAndTime')}>
              <TextField
                label={t('event.place')}
                value={form.place}
                onChange={set('place')}
                disabled={!editable}
              />
              <Stack direction="row" spacing={2}>
                <TextField
                  label={t('event.lat')}
                  value={form.placeLat}
                  onChange={set('placeLat')}
                  disabled={!editable}
                  inputMode="decimal"
                  fullWidth
                  error={!!err('placeLat')}
                  helperText={err('placeLat')}
                />
                <TextField
                  label={t('event.lon')}
                  value={form.placeLon}
                  onChange={set('placeLon')}
                  disabled={!editable}
                  inputMode="decimal"
                  fullWidth
                  error={!!err('placeLon')}
                  helperText={err('placeLon')}
                />
              </Stack>
              <TimeZoneField
                value={form.timeZone}
                onChange={(timeZone) => setForm((f) => ({ ...f, timeZone }))}
                error={err('timeZone')}
                disabled={!editable}
              />
            </Section>
          </Grid>
          <Grid size={{ xs: 12 }}>
            <Section title={t('event.branding')}>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={2}
                sx={{ alignItems: { sm: 'flex-start' } }}
              >
                <TextField
                  label={t('event.accentColor')}
                  value={form.accentColor}
                  onChange={set('accentColor')}
                  placeholder="#39aade"
                  disabled={!editable}
                  error={!!err('accentColor')}
                  helperText={err('accentColor') ?? t('event.accentHelp')}
                  slotProps={{
                    input: {
                      startAdornment: (
                        <Box
                          component="input"
                          type="color"
                          aria-label={t('event.pickColor')}
                          value={/^#[0-9a-f]{6}$/i.test(form.accentColor) ? form.accentColor : '#39aade'}
                          onChange={set('accentColor')}
                          disabled={!editable}
                          sx={{ width: 32, height: 32, border: 0, p: 0, mr: 1, bgcolor: 'transparent' }}
                        />
                      ),
                    },
                  }}
                />
                <TextField
                  label={t('event.tagline')}
                  value={form.tagline}
                  onChange={set('tagline')}
                  disabled={!editable}
                  fullWidth
                />
              </Stack>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Box
                  sx={{
                    width: 96,
                    height: 96,
                    border: 1,
                    borderColor: 'divider',
                    borderRadius: 1,
                    display: 'grid',
                    placeItems: 'center',
                    overflow: 'hidden',
                    bgcolor: 'background.default',
                  }}
                >
                  {logoSrc.data ? (
                    <Box
                      component="img"
                      src={logoSrc.data}
                      data-testid="console-event-logo"
                      alt={t('event.logoAlt', { name: event.name })}
                      sx={{ maxWidth: '100%', maxHeight: '100%' }}
                    />
                  ) : (
                    <Typography variant="caption" color="text.secondary">
                      {t('event.noLogo')}
                    </Typography>
                  )}
                </Box>
                <FileDrop
                  label={t('event.uploadLogo')}
                  accept="image/png,image/jpeg,image/webp"
                  disabled={!editable || logo.isPending}
                  onFile={(file) => logo.mutate(file)}
                />
                {event.logoUrl && (
                  <Button onClick={() => logo.mutate(null)} disabled={!editable || logo.isPending}>
                    {t('event.removeLogo')}
                  </Button>
                )}
              </Stack>
              <SaveError error={logo.error} />
            </Section>
          </Grid>
        </Grid>
        {editable && (
          <Box>
            <Button type="submit" variant="contained" size="large" disabled={save.isPending}>
              {t('form.save')}
            </Button>
          </Box>
        )}
        {can('delete', 'Event') && (
          <Paper
            variant="outlined"
            sx={{ p: { xs: 2, sm: 3 }, borderColor: 'error.light' }}
            component="section"
            aria-label={t('event.delete')}
          >
            <Typography variant="h6" component="h2">
              {t('event.delete')}
            </Typography>
            <Typography color="text.secondary" sx={{ my: 1 }}>
              {event.passings > 0
                ? t('event.deleteRefused', { count: event.passings })
                : t('event.deleteHelp')}
            </Typography>
            <SaveError error={remove.error} />
            <Button
              color="error"
              variant="outlined"
              disabled={event.passings > 0 || remove.isPending}
              onClick={() =>
                window.confirm(t('event.confirmDelete', { name: event.name })) && remove.mutate()
              }
            >
              {t('event.delete')}
            </Button>
          </Paper>
        )}
      </Stack>
    </form>
  );
}
