import { Avatar, IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import type { UserProfile } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { LANGUAGES, type Lng, setLanguage } from '../../lib/i18n.ts';

/**
 * The top bar's menus, loaded on the first click (MUI's Menu, Popover and transitions stay out of
 * every page's first chunk: issue 19 budget).
 */
export function LanguageMenu({ anchor, onClose }: { anchor: HTMLElement; onClose(): void }) {
  const { t, i18n } = useTranslation();
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      {LANGUAGES.map((lng: Lng) => (
        <MenuItem
          key={lng}
          lang={lng}
          selected={i18n.language === lng}
          onClick={() => {
            onClose();
            void setLanguage(lng);
          }}
        >
          {t(`shell.languages.${lng}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}

/** The signed-in user's menu: name and e-mail, profile, sign-out. */
export function UserMenuList({
  anchor,
  onClose,
  name,
}: {
  anchor: HTMLElement;
  onClose(): void;
  name: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { profile, signOut } = useAuth();
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      <MenuItem disabled sx={{ opacity: '1 !important' }}>
        <ListItemText primary={name} secondary={profile?.email} />
      </MenuItem>
      <MenuItem
        onClick={() => {
          onClose();
          navigate(paths.profile());
        }}
      >
        {t('shell.profile')}
      </MenuItem>
      <MenuItem
        onClick={() => {
          onClose();
          navigate(paths.myResults());
        }}
      >
        {t('shell.myResults')}
      </MenuItem>
      <MenuItem
        onClick={() => {
          onClose();
          navigate(paths.myEntries());
        }}
      >
        {t('shell.myEntries')}
      </MenuItem>
      <MenuItem
        onClick={async () => {
          onClose();
          // Spec §4: sign-out clears the stored data and goes to `/` (done by the auth provider).
          await signOut();
        }}
      >
        {t('shell.signOut')}
      </MenuItem>
    </Menu>
  );
}

/** The signed-in user's avatar button and menu (spec §2: name, picture, profile, sign-out). */
export function SignedInMenu({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
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
      {anchor && <UserMenuList anchor={anchor} onClose={() => setAnchor(null)} name={name} />}
    </>
  );
}
