import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { useConsoleEvent } from '../../../features/console/api/events.ts';
import { deleteRace, useConsoleRace } from '../../../features/console/api/races.ts';
import { CategoriesEditor } from '../../../features/console/components/categories-editor.tsx';
import { CoursePanel } from '../../../features/console/components/course-panel.tsx';
import { FadePriorForm } from '../../../features/console/components/fade-prior-form.tsx';
import { SaveError } from '../../../features/console/components/form-state.tsx';
import { FormatForm } from '../../../features/console/components/format-form.tsx';
import { PointsEditor } from '../../../features/console/components/points-editor.tsx';
import { PublicationForm } from '../../../features/console/components/publication-form.tsx';
import { RaceDetailsForm } from '../../../features/console/components/race-details-form.tsx';
import { RelayMembersForm } from '../../../features/console/components/relay-members-form.tsx';
import { ReviewPanel } from '../../../features/console/components/review-panel.tsx';
import {
  SECTION_SCROLL_MARGIN,
  SectionNav,
  useScrollToSection,
} from '../../../features/console/components/section-nav.tsx';
import { TeamRuleForm } from '../../../features/console/components/team-rule-form.tsx';
import { useOrgAbility } from '../../../features/console/use-org-ability.ts';

/** A section of the race page; `id` is its deep-link anchor (`…/races/{raceId}#{id}`). */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, scrollMarginTop: SECTION_SCROLL_MARGIN }}
      component="section"
      id={id}
      aria-labelledby={`${id}-title`}
    >
      <Typography variant="h6" component="h3" id={`${id}-title`} sx={{ mb: 2, outline: 'none' }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * `/console/events/{eventId}/races/{raceId}`: the race editor (issue 14): details and gun times,
 * timing points, course, categories, team rule, the prediction's previous editions; its reports on their own page.
 */
export default function RacePage() {
  const { t } = useTranslation('console');
  const { eventId = '', raceId = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const event = useConsoleEvent(eventId);
  const race = useConsoleRace(raceId);
  const { can } = useOrgAbility(event.data?.organisationId ?? '');
  const remove = useMutation({
    mutationFn: () => deleteRace(raceId),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['console'] });
      navigate(consolePaths.eventRaces(eventId));
    },
  });
  useScrollToSection(race.isSuccess && event.isSuccess);
  if (race.isPending || event.isPending) return <PageLoading />;
  if (race.isError) return <PageError error={race.error} />;
  const r = race.data;
  const editable = can('update', 'Race');
  // Every form is keyed by the race's state: a saved change (or another tab's) resets it.
  const stamp = JSON.stringify(r);
  const sections = [
    { id: 'race-details', title: t('race.details') },
    { id: 'race-points', title: t('points.title') },
    { id: 'race-course', title: t('course.title') },
    { id: 'race-format', title: t('format.title') },
    ...(r.format.kind === 'relay' ? [{ id: 'race-relay-members', title: t('relayMembers.title') }] : []),
    { id: 'race-categories', title: t('categories.title') },
    { id: 'race-team', title: t('team.title') },
    { id: 'race-review', title: t('review.title') },
    { id: 'race-publication', title: t('publication.title') },
    { id: 'race-prediction', title: t('prediction.title') },
    ...(can('delete', 'Race') ? [{ id: 'race-delete', title: t('race.delete') }] : []),
  ];
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', md: 'row' },
        gap: { xs: 1, md: 3 },
        alignItems: { md: 'flex-start' },
      }}
    >
      <SectionNav sections={sections} />
      <Stack spacing={2} sx={{ flexGrow: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
            {r.name}
          </Typography>
          <Button component={Link} to={consolePaths.raceReports(eventId, raceId)} variant="outlined">
            {t('reports.title')}
          </Button>
        </Box>
        {!editable && <Alert severity="info">{t('readOnly')}</Alert>}
        <Section id="race-details" title={t('race.details')}>
          <RaceDetailsForm key={`d${stamp}`} race={r} editable={editable} />
        </Section>
        <Section id="race-points" title={t('points.title')}>
          <PointsEditor key={`p${stamp}`} race={r} editable={editable} />
        </Section>
        <Section id="race-course" title={t('course.title')}>
          <CoursePanel race={r} editable={editable} />
        </Section>
        <Section id="race-format" title={t('format.title')}>
          <FormatForm key={`m${stamp}`} race={r} editable={editable} />
        </Section>
        {r.format.kind === 'relay' && (
          <Section id="race-relay-members" title={t('relayMembers.title')}>
            <RelayMembersForm key={`r${stamp}`} race={r} editable={editable} />
          </Section>
        )}
        <Section id="race-categories" title={t('categories.title')}>
          <CategoriesEditor key={`c${stamp}`} race={r} editable={editable} />
        </Section>
        <Section id="race-team" title={t('team.title')}>
          <TeamRuleForm key={`t${stamp}`} race={r} editable={editable} />
        </Section>
        <Section id="race-review" title={t('review.title')}>
          <ReviewPanel race={r} desk={can('manage', 'Passing')} />
        </Section>
        <Section id="race-publication" title={t('publication.title')}>
          <PublicationForm key={`o${stamp}`} race={r} editable={editable} />
        </Section>
        <Section id="race-prediction" title={t('prediction.title')}>
          <FadePriorForm key={`f${stamp}`} race={r} editable={editable} />
        </Section>
        {can('delete', 'Race') && (
          <Section id="race-delete" title={t('race.delete')}>
            <Typography color="text.secondary" sx={{ mb: 1 }}>
              {r.passings > 0 ? t('race.deleteRefused', { count: r.passings }) : t('race.deleteHelp')}
            </Typography>
            <SaveError error={remove.error} />
            <Button
              color="error"
              variant="outlined"
              disabled={r.passings > 0 || remove.isPending}
              onClick={() => window.confirm(t('race.confirmDelete', { name: r.name })) && remove.mutate()}
            >
              {t('race.delete')}
            </Button>
          </Section>
        )}
      </Stack>
    </Box>
  );
}
