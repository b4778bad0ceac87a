import { Alert, Card, CardActionArea, CardContent, Chip, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { useOrganisations } from '../../../features/console/api/organisations.ts';
import { OrganisationForm } from '../../../features/console/components/organisation-form.tsx';

/** `/console`: the organiser's organisations; one to create when there is none (issue 14). */
export default function ConsoleHomePage() {
  const { t } = useTranslation('console');
  const navigate = useNavigate();
  const organisations = useOrganisations();
  if (organisations.isPending) return <PageLoading />;
  if (organisations.isError) return <PageError error={organisations.error} />;
  const list = organisations.data;
  return (
    <>
      <PageHeader title={t('home.title')} crumbs={[[t('home.title')]]} />
      {list.length === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('home.none')}
        </Alert>
      )}
      {list.length > 0 && (
        <Stack
          spacing={1.5}
          sx={{ mb: 4 }}
          component="ul"
          aria-label={t('home.mine')}
          style={{ padding: 0, listStyle: 'none' }}
        >
          {list.map((org) => (
            <li key={org.id}>
              <Card variant="outlined">
                <CardActionArea component={Link} to={consolePaths.organisation(org.id)}>
                  <CardContent sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                    <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
                      {org.name}
                    </Typography>
                    {org.role && <Chip size="small" label={t(`roles.${org.role}.name`)} />}
                    <Typography color="text.secondary" sx={{ width: '100%' }}>
                      {t('home.events', { count: org.events })} · {t('home.members', { count: org.members })}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </li>
          ))}
        </Stack>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {list.length === 0 ? t('home.createFirst') : t('org.createTitle')}
        </Typography>
        <OrganisationForm onDone={(org) => navigate(consolePaths.organisation(org.id))} />
      </Paper>
    </>
  );
}
