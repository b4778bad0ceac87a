import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  FormControlLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import {
  useCreateTeam,
  useJoinWaitlist,
  useMyEntries,
  usePlaceOrder,
  useRegistrationPage,
} from '../../../features/entries/api/entries.ts';
import { EntryForm } from '../../../features/entries/components/entry-form.tsx';
import { fieldText, problemText } from '../../../features/entries/components/errors.ts';
import { SignInToEnter } from '../../../features/entries/components/sign-in-to-enter.tsx';
import { entriesPaths } from '../../../features/entries/paths.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';

/**
 * `/entries/{event}` (issue 38): whether entries are open and until when, each race's price now,
 * the next price and its date, places left or the waitlist; "Enter" opens the form (phone first:
 * one column). A waitlist invitation's link (`?race=…&invitation=…`) opens the form for its race.
 */
export default function EntriesEventPage() {
  const { t, i18n } = useTranslation('entries');
  const { event = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { profile } = useAuth();
  const page = useRegistrationPage(event);
  const place = usePlaceOrder(event);
  const waitlist = useJoinWaitlist(event);
  const invitation = params.get('invitation');
  // The race chosen on the page, else the invitation link's (read on every navigation).
  const [chosen, setRaceId] = useState<string | null>(null);
  const [teamRace, setTeamRace] = useState<string | null>(null);
  const raceId = chosen ?? params.get('race');
  // A deferral credit's link from My entries (`?code=`): its amount and the race where its place
  // is kept (that race takes its runner even when full to others).
  const creditCode = params.get('code');
  const mine = useMyEntries({ enabled: Boolean(profile && creditCode) });
  const credit = creditCode
    ? (mine.data ?? []).find((e) => e.credit?.code?.toUpperCase() === creditCode.toUpperCase())?.credit
    : undefined;
  const keptRaceId = credit?.place?.state === 'reserved' ? credit.place.raceId : null;
  if (page.isPending) return <PageLoading />;
  if (page.isError) return <PageError error={page.error} />;
  const data = page.data;
  const money = (c: number) => formatMoney(c, data.currency, i18n.language);
  const when = (iso: string) => formatDateTime(iso, i18n.language, data.timeZone);
  const lang = i18n.language === 'fr' ? 'fr' : 'en';
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <PageHeader
        title={`${t('title')} — ${data.eventName}`}
        crumbs={[[data.eventName, paths.eventHome(event)], [t('title')]]}
      />
      <Alert severity={data.open ? 'success' : 'warning'} sx={{ mb: 2 }} data-testid="entries-status">
        {data.open
          ? data.closesAt
            ? t('open', { date: when(data.closesAt) })
            : t('openNoEnd')
          : t('closed')}
      </Alert>
      <Button component={RouterLink} to={entriesPaths.startList(event)} sx={{ mb: 1 }}>
        {t('startList.link')}
      </Button>
      {waitlist.isSuccess && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('waitlistJoined', { position: waitlist.data.position })}
        </Alert>
      )}
      {waitlist.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {problemText(t, waitlist.error)}
        </Alert>
      )}
      <Stack spacing={2} sx={{ mb: 3 }}>
        {data.races.map((r) => (
          <Card key={r.raceId} variant="outlined" data-testid={`race-${r.raceId}`}>
            <CardContent>
              <Typography variant="h6" component="h2">
                {r.name}
              </Typography>
              <Typography>{t('priceNow', { price: money(r.priceCents) })}</Typography>
              {r.next && (
                <Typography variant="body2" color="text.secondary">
                  {t('nextPrice', { price: money(r.next.cents), date: when(r.next.from) })}
                </Typography>
              )}
              <Chip
                sx={{ mt: 1 }}
                size="small"
                color={r.waitlist && r.raceId !== keptRaceId ? 'warning' : 'success'}
                label={
                  r.raceId === keptRaceId
                    ? t('placeKept')
                    : r.waitlist
                      ? t('full')
                      : r.placesLeft == null
                        ? t('unlimited')
                        : t('placesLeft', { count: r.placesLeft })
                }
              />
            </CardContent>
            <CardActions>
              {r.waitlist && !invitation && r.raceId !== keptRaceId ? (
                <Button
                  disabled={!profile || waitlist.isPending || !r.open}
                  onClick={() => waitlist.mutate({ raceId: r.raceId, lang })}
                >
                  {t('joinWaitlist')}
                </Button>
              ) : (
                <Button variant="contained" disabled={!r.open} onClick={() => setRaceId(r.raceId)}>
                  {t('enter')}
                </Button>
              )}
              {r.teamSize != null && !r.waitlist && (
                <Button disabled={!r.open} onClick={() => setTeamRace(r.raceId)}>
                  {t('team.create')}
                </Button>
              )}
            </CardActions>
          </Card>
        ))}
      </Stack>
      {teamRace && (
        <NewTeam
          eventId={event}
          raceId={teamRace}
          signedIn={Boolean(profile)}
          onCreated={(token) => navigate(entriesPaths.team(event, token))}
        />
      )}
      {raceId && !profile && <SignInToEnter raceId={raceId} />}
      {raceId && profile && (
        <EntryForm
          key={raceId}
          page={data}
          raceId={raceId}
          profile={profile}
          invitation={invitation}
          creditCode={creditCode}
          credit={credit ? { cents: credit.cents, keptRaceId } : null}
          busy={place.isPending}
          error={place.error}
          onSubmit={(input) =>
            place.mutate(input, { onSuccess: (order) => navigate(paths.entryOrder(order.orderId)) })
          }
        />
      )}
    </Box>
  );
}

/** A captain names a team for a race that takes teams, and says who pays; then its page and link. */
function NewTeam({
  eventId,
  raceId,
  signedIn,
  onCreated,
}: {
  eventId: string;
  raceId: string;
  signedIn: boolean;
  onCreated: (token: string) => void;
}) {
  const { t } = useTranslation('entries');
  const create = useCreateTeam(eventId);
  const [name, setName] = useState('');
  const [pays, setPays] = useState<'captain' | 'each'>('each');
  if (!signedIn) return <SignInToEnter />;
  const err = (f: string) => fieldText(t, create.error, f);
  return (
    <Paper
      component="form"
      variant="outlined"
      sx={{ p: 2, mb: 2 }}
      noValidate
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        create.mutate({ raceId, name, pays }, { onSuccess: (team) => onCreated(team.token) });
      }}
    >
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('team.create')}
      </Typography>
      <Stack spacing={1.5}>
        <TextField
          label={t('team.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(err('name') ?? err('raceId'))}
          helperText={err('name') ?? err('raceId')}
          size="small"
          fullWidth
        />
        <RadioGroup
          aria-label={t('team.whoPays')}
          value={pays}
          onChange={(e) => setPays(e.target.value as 'captain' | 'each')}
        >
          <FormControlLabel value="each" control={<Radio />} label={t('team.eachPays')} />
          <FormControlLabel value="captain" control={<Radio />} label={t('team.captainPays')} />
        </RadioGroup>
        {create.error && !err('name') && !err('raceId') && (
          <Alert severity="error" role="alert">
            {problemText(t, create.error)}
          </Alert>
        )}
        <Button type="submit" variant="contained" disabled={create.isPending}>
          {t('team.createSubmit')}
        </Button>
      </Stack>
    </Paper>
  );
}
