import { Alert, AlertTitle } from '@mui/material';
import type { InvitationPreview } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';

/**
 * What an invitation link opened signed out says above the sign-in and sign-up forms (issue 43:
 * it landed on a bare "Sign in"): who invites, to which role, and the address to use.
 */
export function InvitationNote({ invitation }: { invitation: InvitationPreview }) {
  const { t } = useTranslation('auth');
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="invitation-note">
      <AlertTitle>{t('invitation.title', { organisation: invitation.organisation.name })}</AlertTitle>
      {t('invitation.text', { role: t(`invitation.roles.${invitation.role}`), email: invitation.email })}
    </Alert>
  );
}
