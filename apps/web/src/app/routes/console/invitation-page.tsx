import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { acceptInvitation, invitationQuery } from '../../../features/console/api/organisations.ts';
import { SaveError } from '../../../features/console/components/form-state.tsx';
import { useAuth } from '../../../lib/auth/auth-context.tsx';

/**
 * `/console/invitations/{token}`: the page an invitation mail links to. The guard has already
 * sent a signed-out visitor to sign in (or sign up) and back here; accepting joins the
 * organisation with the invited role.
 */
export default function InvitationPage() {
  const { t } = useTranslation('console');
  const { token = '' } = useParams();
  const { profile } = useAuth();
  const navigate = useNavigate();
  const client = useQueryClient();
  const invitation = useQuery(invitationQuery(token));
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token),
    onSuccess: (org) => {
      void client.invalidateQueries({ queryKey: ['console'] });
      navigate(consolePaths.organisation(org.id));
    },
  });
  if (invitation.isPending) return <PageLoading />;
  if (invitation.isError) return <PageError error={invitation.error} />;
  const inv = invitation.data;
  const otherEmail = profile?.email && profile.email.toLowerCase() !== inv.email;
  return (
    <>
      <PageHeader
        title={t('invitation.title')}
        crumbs={[[t('home.title'), consolePaths.home()], [t('invitation.title')]]}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t('invitation.to', { organisation: inv.organisation.name })}
          </Typography>
          <Typography>{t('invitation.role', { role: t(`roles.${inv.role}.name`) })}</Typography>
          <Typography color="text.secondary">{t(`roles.${inv.role}.can`)}</Typography>
          {inv.state !== 'pending' && <Alert severity="warning">{t(`invitation.state.${inv.state}`)}</Alert>}
          {inv.state === 'pending' && otherEmail && (
            <Alert severity="warning">{t('invitation.otherEmail', { email: inv.email })}</Alert>
          )}
          <SaveError error={accept.error} />
          {inv.state === 'pending' && (
            <div>
              <Button
                variant="contained"
                onClick={() => accept.mutate()}
                disabled={accept.isPending || !!otherEmail}
              >
                {t('invitation.accept')}
              </Button>
            </div>
          )}
        </Stack>
      </Paper>
    </>
  );
}
