import { mdiAccountCircle, mdiTranslate } from '@mdi/js';
import { Avatar, Button, IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { LANGUAGES, type Lng, setLanguage } from '../../lib/i18n.ts';

/** The language selector of the top bar (spec §2): English and French. */
export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('shell.language')}>
        <Button
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          startIcon={<MdiIcon path={mdiTranslate} />}
          aria-label={t('shell.language')}
          aria-haspopup="menu"
        >
          {i18n.language.toUpperCase()}
        </Button>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lng: Lng) => (
          <MenuItem
            key={lng}
            lang={lng}
            selected={i18n.language === lng}
            onClick={() => {
              setAnchor(null);
              void setLanguage(lng);
            }}
          >
            {t(`shell.languages.${lng}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** The user menu (spec §2): sign-in when signed out; name, picture, profile and sign-out when in. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { status, profile, signOut } = useAuth();
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
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem disabled sx={{ opacity: '1 !important' }}>
          <ListItemText primary={name} secondary={profile.email} />
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            navigate(paths.profile());
          }}
        >
          {t('shell.profile')}
        </MenuItem>
        <MenuItem
          onClick={async () => {
            setAnchor(null);
            // Spec §4: sign-out clears the stored data and goes to `/` (done by the auth provider).
            await signOut();
          }}
        >
          {t('shell.signOut')}
        </MenuItem>
      </Menu>
    </>
  );
}
