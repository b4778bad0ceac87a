import { mdiAccountCircle, mdiTranslate } from '@mdi/js';
import { Box, Button } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';

const LanguageMenu = lazy(() => import('./header-menus.tsx').then((m) => ({ default: m.LanguageMenu })));
const SignedInMenu = lazy(() => import('./header-menus.tsx').then((m) => ({ default: m.SignedInMenu })));

/** The language selector of the top bar (spec §2): English and French. */
export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const visible = i18n.language.toUpperCase();
  return (
    <>
      {/* Issue 19: the accessible name starts with the visible text ("FR"), then says what it does. */}
      <Button
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        startIcon={<MdiIcon path={mdiTranslate} />}
        aria-label={`${visible} – ${t('shell.language')}`}
        title={t('shell.language')}
        aria-haspopup="menu"
      >
        {visible}
      </Button>
      {anchor && (
        <Suspense fallback={null}>
          <LanguageMenu anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}

/** The user menu (spec §2): sign-in when signed out; name, picture, profile and sign-out when in. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { status, profile } = useAuth();
  if (status !== 'signedIn' || !profile) {
    return (
      <Button
        color="inherit"
        onClick={() => navigate(paths.login())}
        startIcon={<MdiIcon path={mdiAccountCircle} />}
      >
        {t('shell.signIn')}
      </Button>
    );
  }
  // The avatar button and its menu load once someone is signed in (issue 19: spectators' JS).
  return (
    <Suspense fallback={<Box sx={{ width: 48, height: 48 }} />}>
      <SignedInMenu profile={profile} />
    </Suspense>
  );
}
