import {
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  Grid,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { useOrgEvents } from '../../../features/console/api/events.ts';
import { useOrganisation } from '../../../features/console/api/organisations.ts';
import { EventCreateDialog } from '../../../features/console/components/event-create-dialog.tsx';
import { MembersPanel } from '../../../features/console/components/members-panel.tsx';
import { OrganisationForm } from '../../../features/console/components/organisation-form.tsx';
import { RolesHelp } from '../../../features/console/components/roles-help.tsx';
import { abilityForRole, inOrg } from '../../../features/console/role-ability.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** `/console/organisations/{orgId}`: events, members and invitations, roles (issue 14). */
export default function OrganisationPage() {
  const { t, i18n } = useTranslation('console');
  const { orgId = '' } = useParams();
  const navigate = useNavigate();
  const org = useOrganisation(orgId);
  const events = useOrgEvents(orgId);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState(false);
  if (org.isPending) return <PageLoading />;
  if (org.isError) return <PageError error={org.error} />;
  const o = org.data;
  const ability = abilityForRole(o.id, o.role);
  const owns = ability.can('manage', inOrg('Organisation', o.id));
  const createsEvents = ability.can('create', inOrg('Event', o.id));
  const day = dateTimeFormat(i18n.language.startsWith('fr') ? 'fr-BE' : 'en-GB', {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });
  return (
    <>
      <PageHeader
        title={o.name}
        crumbs={[[t('home.title'), consolePaths.home()], [o.name]]}
        actions={
          owns && (
            <Button variant="outlined" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
              {t('org.edit')}
            </Button>
          )
        }
      />
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap' }}>
        {o.role && <Chip label={t('org.yourRole', { role: t(`roles.${o.role}.name`) })} />}
        <Chip variant="outlined" label={`${o.country} · ${o.contactEmail}`} />
      </Stack>
      {editing && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3, maxWidth: 720 }}>
          <OrganisationForm organisation={o} onDone={() => setEditing(false)} />
        </Paper>
      )}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', mb: 1.5, gap: 1 }}>
            <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
              {t('org.events')}
            </Typography>
            {createsEvents && (
              <Button variant="contained" onClick={() => setCreating(true)}>
                {t('event.new')}
              </Button>
            )}
          </Box>
          {events.isError && <PageError error={events.error} />}
          {events.data?.length === 0 && <Typography color="text.secondary">{t('org.noEvents')}</Typography>}
          <Stack
            spacing={1.5}
            component="ul"
            sx={{ p: 0, m: 0, listStyle: 'none' }}
            aria-label={t('org.events')}
          >
            {events.data?.map((e) => (
              <li key={e.id}>
                <Card
                  variant="outlined"
                  sx={{ borderLeft: 6, borderLeftColor: e.accentColor ?? 'primary.main' }}
                >
                  <CardActionArea component={Link} to={consolePaths.event(e.id)}>
                    <CardContent>
                      <Typography variant="h6" component="h3">
                        {e.name}
                      </Typography>
                      <Typography color="text.secondary">
                        {day.format(new Date(`${e.startDate}T00:00:00Z`))}
                        {e.place ? ` · ${e.place}` : ''}
                      </Typography>
                      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
                        <Chip
                          size="small"
                          label={t(`status.${e.status}`)}
                          color={e.status === 'live' ? 'error' : 'default'}
                        />
                        <Chip size="small" variant="outlined" label={t(`visibility.${e.visibility}`)} />
                      </Stack>
                    </CardContent>
                  </CardActionArea>
                </Card>
              </li>
            ))}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
            <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
              {t('members.title')}
            </Typography>
            <MembersPanel orgId={o.id} manage={owns} />
          </Paper>
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('roles.title')}
            </Typography>
            <RolesHelp />
          </Paper>
        </Grid>
      </Grid>
      {creating && (
        <EventCreateDialog
          orgId={o.id}
          country={o.country}
          onClose={() => setCreating(false)}
          onCreated={(e) => navigate(consolePaths.event(e.id))}
        />
      )}
    </>
  );
}
