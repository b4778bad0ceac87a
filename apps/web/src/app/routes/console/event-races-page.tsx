import {
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { createContext, deleteContext, useConsoleEvent } from '../../../features/console/api/events.ts';
import { fieldError, SaveError } from '../../../features/console/components/form-state.tsx';
import { keyFrom, RaceCreateDialog } from '../../../features/console/components/race-create-dialog.tsx';
import { useOrgAbility } from '../../../features/console/use-org-ability.ts';
import { numberFormat } from '../../../lib/intl.ts';

/** `/console/events/{eventId}/races`: the event's contexts (timing databases) and their races. */
export default function EventRacesPage() {
  const { t } = useTranslation('console');
  const { eventId = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const event = useConsoleEvent(eventId);
  const { can } = useOrgAbility(event.data?.organisationId ?? '');
  const [creating, setCreating] = useState(false);
  const [ctx, setCtx] = useState({ db: '', name: '' });
  const refresh = () => client.invalidateQueries({ queryKey: ['console'] });
  const addContext = useMutation({
    mutationFn: () => createContext(eventId, { db: ctx.db || keyFrom(ctx.name), name: ctx.name }),
    onSuccess: () => {
      setCtx({ db: '', name: '' });
      void refresh();
    },
  });
  const removeContext = useMutation({ mutationFn: deleteContext, onSuccess: refresh });
  if (event.isPending) return <PageLoading />;
  if (event.isError) return <PageError error={event.error} />;
  const e = event.data;
  const editable = can('update', 'Event');
  const km = numberFormat(undefined, { maximumFractionDigits: 3 });
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    addContext.mutate();
  };
  return (
    <Stack spacing={3}>
      <Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
          <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
            {t('race.title')}
          </Typography>
          {can('create', 'Race') && (
            <Button variant="contained" onClick={() => setCreating(true)} disabled={e.contexts.length === 0}>
              {t('race.new')}
            </Button>
          )}
        </Box>
        {e.contexts.length === 0 && <Typography color="text.secondary">{t('context.first')}</Typography>}
        {e.contexts.length > 0 && e.races.length === 0 && (
          <Typography color="text.secondary">{t('race.none')}</Typography>
        )}
        <Stack
          spacing={1.5}
          component="ul"
          sx={{ p: 0, m: 0, listStyle: 'none' }}
          aria-label={t('race.title')}
        >
          {e.races.map((r) => (
            <li key={r.id}>
              <Card variant="outlined">
                <CardActionArea component={Link} to={consolePaths.race(eventId, r.id)}>
                  <CardContent>
                    <Typography variant="h6" component="h3">
                      {r.name}
                    </Typography>
                    <Typography color="text.secondary">
                      {t('race.summary', {
                        km: km.format(r.distanceM / 1000),
                        date: r.date,
                        start: t(`startType.${r.startType}`),
                        count: r.participants,
                        context: e.contexts.find((c) => c.db === r.db)?.name ?? r.db,
                      })}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </li>
          ))}
        </Stack>
      </Box>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 2, sm: 3 } }}
        component="section"
        aria-label={t('context.title')}
      >
        <Typography variant="h6" component="h2">
          {t('context.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('context.help')}
        </Typography>
        <SaveError error={removeContext.error} />
        <Stack spacing={1} sx={{ mb: 2 }}>
          {e.contexts.map((c) => (
            <Box key={c.db} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 600 }}>{c.name}</Typography>
              <Typography color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                {c.db}
              </Typography>
              <Typography color="text.secondary" sx={{ flexGrow: 1 }}>
                · {t('context.races', { count: c.races })}
              </Typography>
              {editable && c.races === 0 && (
                <Button size="small" color="error" onClick={() => removeContext.mutate(c.db)}>
                  {t('form.delete')}
                </Button>
              )}
            </Box>
          ))}
        </Stack>
        {editable && (
          <form onSubmit={submit} noValidate aria-label={t('context.add')}>
            <SaveError error={addContext.error} />
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1.5}
              sx={{ alignItems: { sm: 'flex-start' } }}
            >
              <TextField
                label={t('context.name')}
                value={ctx.name}
                onChange={(ev) => setCtx((c) => ({ ...c, name: ev.target.value }))}
                required
                fullWidth
                error={!!fieldError(addContext.error, 'name')}
                helperText={fieldError(addContext.error, 'name')}
              />
              <TextField
                label={t('context.db')}
                value={ctx.db}
                placeholder={keyFrom(ctx.name)}
                onChange={(ev) => setCtx((c) => ({ ...c, db: ev.target.value }))}
                fullWidth
                error={!!fieldError(addContext.error, 'db')}
                helperText={fieldError(addContext.error, 'db') ?? t('context.dbHelp')}
              />
              <Button
                type="submit"
                variant="outlined"
                disabled={addContext.isPending}
                sx={{ minHeight: 56, flexShrink: 0 }}
              >
                {t('context.add')}
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
      {creating && (
        <RaceCreateDialog
          contexts={e.contexts}
          defaultDate={e.startDate}
          timeZone={e.timeZone}
          onClose={() => setCreating(false)}
          onCreated={(race) => navigate(consolePaths.race(eventId, race.id))}
        />
      )}
    </Stack>
  );
}
