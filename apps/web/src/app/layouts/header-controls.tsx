import { mdiAccountCircle, mdiTranslate } from '@mdi/js';
import { Avatar, Button, IconButton } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';

const LanguageMenu = lazy(() => import('./header-menus.tsx').then((m) => ({ default: m.LanguageMenu })));
const UserMenuList = lazy(() => import('./header-menus.tsx').then((m) => ({ default: m.UserMenuList })));

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
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
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
  const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ') || profile.email;
  const initials =
    (profile.firstName?.[0] ?? profile.email[0] ?? '?').toUpperCase() + (profile.lastName?.[0] ?? '');
  return (
    <>
      <IconButton
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={t('shell.userMenu', { name })}
        aria-haspopup="menu"
      >
        <Avatar
          src={profile.profilePicture ?? undefined}
          alt={name}
          sx={{ width: 32, height: 32, bgcolor: 'secondary.main', fontSize: 14 }}
        >
          {initials}
        </Avatar>
      </IconButton>
      {anchor && (
        <Suspense fallback={null}>
          <UserMenuList anchor={anchor} onClose={() => setAnchor(null)} name={name} />
        </Suspense>
      )}
    </>
  );
}
