import { Alert, Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { rememberRoute } from '../../../lib/auth/intended-route.ts';

/**
 * A signed-out runner on an entry page (issue 38): sign in, or create an account on the way — its
 * verification link leads back to this page (the e-mail verified), and signing in too; with
 * `raceId`, to the form of that race.
 */
export function SignInToEnter({ raceId }: { raceId?: string | null } = {}) {
  const { t } = useTranslation('entries');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const go = (to: string) => {
    rememberRoute(raceId ? `${pathname}?race=${encodeURIComponent(raceId)}` : pathname);
    navigate(to);
  };
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="sign-in-to-enter">
      {t('signInToEnter')}
      <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
        <Button variant="contained" size="small" onClick={() => go(paths.register())}>
          {t('createAccount')}
        </Button>
        <Button size="small" onClick={() => go(paths.login())}>
          {t('signIn')}
        </Button>
      </Stack>
    </Alert>
  );
}
