import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '../lib/document-title.ts';

/** A full-page message with a way home (the not-found page and the route error page). */
export function FullPageMessage({ code, title, text }: { code: string; title: string; text: string }) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '80vh', p: 3, textAlign: 'center' }}>
      <Box sx={{ maxWidth: 480 }}>
        <Typography
          aria-hidden
          sx={{ fontSize: { xs: 64, sm: 96 }, fontWeight: 800, lineHeight: 1, color: 'primary.dark', mb: 2 }}
        >
          {code}
        </Typography>
        <Typography variant="h4" component="h1" gutterBottom sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {text}
        </Typography>
        <Button variant="contained" size="large" component={RouterLink} to="/">
          {t('notFound.home')}
        </Button>
      </Box>
    </Box>
  );
}
