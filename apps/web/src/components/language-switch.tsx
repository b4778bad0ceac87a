import { Box, Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Lng, setLanguage } from '../lib/i18n.ts';

/**
 * The languages side by side, each named in itself (`English`, `Français`), the current one
 * pressed: the sign-in and account pages, which have no top bar, had no way to change language
 * (issue 43). One tap, no menu.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Box
      role="group"
      aria-label={t('shell.language')}
      sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}
      data-testid="language-switch"
    >
      {LANGUAGES.map((lng: Lng) => (
        <Button
          key={lng}
          lang={lng}
          size="small"
          variant={i18n.language === lng ? 'outlined' : 'text'}
          aria-pressed={i18n.language === lng}
          onClick={() => void setLanguage(lng)}
          sx={{ minHeight: 44, textTransform: 'none' }}
        >
          {t(`shell.languages.${lng}`)}
        </Button>
      ))}
    </Box>
  );
}
