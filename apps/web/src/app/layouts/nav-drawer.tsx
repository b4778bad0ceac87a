import {
  mdiBug,
  mdiCalendarStar,
  mdiCash,
  mdiFileCheck,
  mdiHome,
  mdiImageMultiple,
  mdiLogin,
  mdiMagnify,
  mdiPin,
  mdiPinOff,
} from '@mdi/js';
import {
  Box,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Toolbar,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { useBranding } from '../../lib/branding.tsx';

/** Spec §9: drawer width 300, rail width 56. */
export const DRAWER_WIDTH = 300;
export const RAIL_WIDTH = 56;

interface Entry {
  to: string;
  icon: string;
  label: string;
}

/** The drawer's entries, from the user's abilities (spec §2: Confirmation only for its account). */
export function useDrawerEntries(): Entry[] {
  const { ability, status } = useAuth();
  // The organiser console (issue 14): whoever may found or read an organisation. Its label is in
  // the console's namespace, loaded only for them (issue 19: spectators never download it).
  const organiser = !!ability?.can('create', 'Organisation') || !!ability?.can('read', 'Organisation');
  const { t } = useTranslation(organiser ? ['common', 'console'] : ['common']);
  const entries: Entry[] = [
    { to: paths.home(), icon: mdiHome, label: t('nav.home') },
    { to: '/tracking', icon: mdiMagnify, label: t('nav.tracking') },
    { to: '/photobox', icon: mdiImageMultiple, label: t('nav.photos') },
  ];
  if (organiser) entries.push({ to: '/console', icon: mdiCalendarStar, label: t('console:nav') });
  if (ability?.can('manage', 'Confirmation'))
    entries.push({ to: paths.confirmation(), icon: mdiFileCheck, label: t('nav.confirmation') });
  if (status === 'signedIn') entries.push({ to: paths.payments(), icon: mdiCash, label: t('nav.payments') });
  else entries.push({ to: paths.login(), icon: mdiLogin, label: t('shell.signIn') });
  // Diagnostics (spec's /test) is for the people who run a race (issue 43: it was in every
  // visitor's menu): whoever handles timing devices, platform staff included. The page stays
  // reachable by its address.
  if (ability?.can('manage', 'Device'))
    entries.push({ to: paths.diagnostics(), icon: mdiBug, label: t('nav.diagnostics') });
  return entries;
}

export interface NavDrawerProps {
  variant: 'temporary' | 'permanent';
  open: boolean;
  expanded: boolean;
  pinned: boolean;
  onClose(): void;
  onTogglePin(): void;
  onHover(expanded: boolean): void;
}

/**
 * The side navigation (spec §2): titled with the product name; on wide screens a rail (56) that
 * expands (300) on hover or when pinned; on small screens a temporary drawer closing on navigation.
 */
export function NavDrawer({
  variant,
  open,
  expanded,
  pinned,
  onClose,
  onTogglePin,
  onHover,
}: NavDrawerProps) {
  const { t } = useTranslation();
  const { productName, logo } = useBranding();
  const entries = useDrawerEntries();
  const wide = variant === 'temporary' || expanded;
  const width = wide ? DRAWER_WIDTH : RAIL_WIDTH;
  return (
    <Drawer
      variant={variant}
      open={variant === 'temporary' ? open : true}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      slotProps={{
        paper: {
          onMouseEnter: () => variant === 'permanent' && onHover(true),
          onMouseLeave: () => variant === 'permanent' && onHover(false),
          sx: { width, overflowX: 'hidden', transition: 'width 150ms', boxSizing: 'border-box' },
          'data-testid': 'nav-drawer',
        } as object,
      }}
      sx={{
        width: variant === 'permanent' ? (pinned ? DRAWER_WIDTH : RAIL_WIDTH) : undefined,
        flexShrink: 0,
      }}
    >
      <Toolbar disableGutters sx={{ px: 1.5, gap: 1 }}>
        <Box component="img" src={logo} alt="" sx={{ width: 32, height: 32, flexShrink: 0 }} />
        {wide && (
          <Typography
            variant="h6"
            component="p"
            sx={{ fontWeight: 700, flexGrow: 1 }}
            data-testid="drawer-title"
          >
            {productName}
          </Typography>
        )}
        {wide && variant === 'permanent' && (
          // A native title, not MUI's Tooltip: Popper stays out of every page's bundle (issue 19).
          <IconButton
            onClick={onTogglePin}
            aria-pressed={pinned}
            aria-label={pinned ? t('nav.unpin') : t('nav.pin')}
            title={pinned ? t('nav.unpin') : t('nav.pin')}
            size="small"
          >
            <MdiIcon path={pinned ? mdiPinOff : mdiPin} fontSize="small" />
          </IconButton>
        )}
      </Toolbar>
      <Divider />
      <nav aria-label={t('nav.label')}>
        <List>
          {entries.map((entry) => (
            <ListItemButton
              key={entry.to}
              component={NavLink}
              to={entry.to}
              end={entry.to === '/'}
              onClick={variant === 'temporary' ? onClose : undefined}
              sx={{ minHeight: 48, px: 2, '&.active': { bgcolor: 'action.selected' } }}
            >
              <ListItemIcon sx={{ minWidth: 40 }}>
                <MdiIcon path={entry.icon} />
              </ListItemIcon>
              <ListItemText primary={entry.label} sx={{ opacity: wide ? 1 : 0, whiteSpace: 'nowrap' }} />
            </ListItemButton>
          ))}
        </List>
      </nav>
    </Drawer>
  );
}
