import { Box, Typography } from '@mui/material';
import { organisationRoles } from '@tempora/contracts/abilities';
import { useTranslation } from 'react-i18next';

/** What each role may do, written out (issue 14; the same rules the server enforces). */
export function RolesHelp() {
  const { t } = useTranslation('console');
  return (
    <Box component="dl" sx={{ m: 0 }} aria-label={t('roles.title')}>
      {organisationRoles.map((role) => (
        <Box key={role} sx={{ mb: 1.5 }}>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            {t(`roles.${role}.name`)}
          </Typography>
          <Typography component="dd" color="text.secondary" sx={{ m: 0 }}>
            {t(`roles.${role}.can`)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
