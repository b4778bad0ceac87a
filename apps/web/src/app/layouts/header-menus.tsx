import { ListItemText, Menu, MenuItem } from '@mui/material';
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
