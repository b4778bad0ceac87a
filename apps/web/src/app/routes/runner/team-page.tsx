import {
  Alert,
  Box,
  Button,
  Chip,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import {
  useJoinTeam,
  useRegistrationPage,
  useTeam,
  useTeamOrder,
} from '../../../features/entries/api/entries.ts';
import { EntryForm } from '../../../features/entries/components/entry-form.tsx';
import { fieldText, problemText } from '../../../features/entries/components/errors.ts';
import { SignInToEnter } from '../../../features/entries/components/sign-in-to-enter.tsx';
import { entriesPaths } from '../../../features/entries/paths.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';
import { formatMoney } from '../../../lib/money.ts';

/**
 * `/entries/{event}/team/{token}` (issue 38): a team's page and link (relays, company
 * challenges). Anyone with the link sees the team, its race and members; a signed-in runner
 * joins it with the entry form (for the team's race only); the captain shares the link and, when
 * the captain pays for all, pays for the members waiting in one order. A link opened on another
 * event's page is refused by the server on the team's field, shown there.
 */
export default function TeamPage() {
  const { t, i18n } = useTranslation('entries');
  const { event = '', token = '' } = useParams();
  const navigate = useNavigate();
  const { profile } = useAuth();
  const team = useTeam(token);
  const page = useRegistrationPage(event);
  const join = useJoinTeam(event, token);
  const order = useTeamOrder(token);
  const [joining, setJoining] = useState(false);
  const [copied, setCopied] = useState(false);
  if (team.isPending || page.isPending) return <PageLoading />;
  if (team.isError) return <PageError error={team.error} />;
  if (page.isError) return <PageError error={page.error} />;
  const tm = team.data;
  const data = page.data;
  const lang = i18n.language === 'fr' ? 'fr' : 'en';
  const money = (c: number) => formatMoney(c, tm.currency, i18n.language);
  const link = `${window.location.origin}${window.location.pathname}#${entriesPaths.team(event, token)}`;
  const teamError = fieldText(t, join.error, 'team');
  // The form offers the team's race only (when the page is the team's event's).
  const races = data.races.filter((r) => r.raceId === tm.raceId);
  const formPage = { ...data, races: races.length ? races : data.races };
  const raceId = (formPage.races[0]?.raceId ?? tm.raceId) as string;
  const waiting = tm.members.filter((m) => m.state === 'waiting').length;
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <PageHeader
        title={t('team.title', { name: tm.name })}
        crumbs={[[data.eventName, paths.entries(event)], [tm.name]]}
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="team-card">
        <Stack spacing={1}>
          <TextField
            label={t('team.field')}
            value={`${tm.name} — ${tm.raceName} (${tm.eventName})`}
            error={Boolean(teamError)}
            helperText={teamError}
            slotProps={{ htmlInput: { readOnly: true } }}
            size="small"
            fullWidth
          />
          <Typography variant="body2">
            {tm.captainName ? t('team.captain', { name: tm.captainName }) : null}
          </Typography>
          <Typography variant="body2">
            {tm.pays === 'captain' ? t('team.captainPays') : t('team.eachPays')}
          </Typography>
          <Typography variant="subtitle2" component="h2">
            {tm.teamSize
              ? t('team.membersOf', { count: tm.members.length, size: tm.teamSize })
              : t('team.members', { count: tm.members.length })}
          </Typography>
          {tm.members.length > 0 && (
            <List dense disablePadding aria-label={t('team.membersList')}>
              {tm.members.map((m, n) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: members are listed in the order they joined
                <ListItem key={n} disableGutters data-testid="team-member">
                  <ListItemText primary={m.name} />
                  <Chip
                    size="small"
                    label={t(`team.states.${m.state}`)}
                    color={m.state === 'confirmed' ? 'success' : m.state === 'held' ? 'info' : 'default'}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Stack>
      </Paper>
      {tm.captain && (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
            {t('team.share')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <TextField
              value={link}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true, 'aria-label': t('team.link') } }}
            />
            <Button
              variant="outlined"
              onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true))}
            >
              {copied ? t('team.copied') : t('team.copy')}
            </Button>
          </Stack>
          {tm.pays === 'captain' && (
            <Box sx={{ mt: 2 }}>
              <Button
                variant="contained"
                disabled={waiting === 0 || order.isPending}
                onClick={() =>
                  order.mutate(lang, { onSuccess: (o) => navigate(paths.entryOrder(o.orderId)) })
                }
                data-testid="team-pay"
              >
                {t('team.payFor', { count: waiting, amount: money(tm.dueCents) })}
              </Button>
              {order.error && (
                <Alert severity="error" role="alert" sx={{ mt: 1 }}>
                  {problemText(t, order.error)}
                </Alert>
              )}
            </Box>
          )}
        </Paper>
      )}
      {join.isSuccess && !join.data.order && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('team.joinedWaiting')}
        </Alert>
      )}
      {!profile ? (
        <SignInToEnter />
      ) : !joining ? (
        <Button variant="contained" size="large" fullWidth onClick={() => setJoining(true)}>
          {t('team.join')}
        </Button>
      ) : (
        !(join.isSuccess && !join.data.order) && (
          <EntryForm
            page={formPage}
            raceId={raceId}
            profile={profile}
            busy={join.isPending}
            error={join.error}
            onSubmit={(input) =>
              join.mutate(input, {
                onSuccess: (joined) => {
                  if (joined.order) navigate(paths.entryOrder(joined.order.orderId));
                },
              })
            }
          />
        )
      )}
    </Box>
  );
}
