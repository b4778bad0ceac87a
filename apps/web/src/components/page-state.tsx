import { Box, Button, Link, Typography } from '@mui/material';
import { Fragment, lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../lib/api-client.ts';
import { useDocumentTitle } from '../lib/document-title.ts';

// Shown on a failure only: every page imports this file (issue 19: the first JS of a page).
const Alert = lazy(() => import('@mui/material/Alert'));

// The spinner lives in its own file: the layouts need it, not the rest of this one (issue 19 budget).
export { PageLoading } from './page-loading.tsx';

/**
 * A translated error message for a failed load (never a stack trace). An unknown event, report or
 * athlete (404) gets a page of its own with a way home (issue 19), and the tab says so.
 */
export function PageError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const notFound = error instanceof ApiError && !error.isNetwork && error.status === 404;
  useDocumentTitle(notFound ? t('views:notFound.title') : null);
  if (notFound) {
    return (
      <Box sx={{ py: { xs: 3, sm: 6 }, maxWidth: 560 }} role="alert" data-testid="not-found">
        <Typography variant="h4" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
          {t('views:notFound.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('views:notFound.text')}
        </Typography>
        <Button variant="contained" component={RouterLink} to="/">
          {t('views:notFound.home')}
        </Button>
      </Box>
    );
  }
  const key = error instanceof ApiError && error.isNetwork ? 'state.network' : 'state.error';
  return (
    <Suspense fallback={<Typography role="alert">{t(key)}</Typography>}>
      <Alert severity="error" role="alert" sx={{ my: 2 }}>
        {t(key)}
      </Alert>
    </Suspense>
  );
}

/**
 * Page heading with breadcrumbs (each `[label, to?]`); the tab takes `documentTitle` where the
 * heading alone would not say which page it is (issue 28: the event, the athlete).
 */
export function PageHeader({
  title,
  documentTitle,
  crumbs = [],
  actions,
}: {
  title: string;
  documentTitle?: string;
  crumbs?: [string, string?][];
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  useDocumentTitle(documentTitle || title);
  return (
    <Box sx={{ mb: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 1 }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        {/* MUI's Breadcrumbs markup (nav > ol > li, separators hidden), without its 1.5 KB of gzip
            on every page (issue 19). */}
        <Box component="nav" aria-label={t('nav.breadcrumbs')} sx={{ fontSize: 14, color: 'text.secondary' }}>
          <Box
            component="ol"
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', listStyle: 'none', m: 0, p: 0 }}
          >
            {[
              <Link key="/" component={RouterLink} to="/" underline="hover" color="inherit">
                {t('nav.home')}
              </Link>,
              ...crumbs.map(([label, to]) =>
                to ? (
                  <Link key={label} component={RouterLink} to={to} underline="hover" color="inherit">
                    {label}
                  </Link>
                ) : (
                  <Typography key={label} color="text.primary" sx={{ fontSize: 14 }}>
                    {label}
                  </Typography>
                ),
              ),
            ].map((item, index) => (
              <Fragment key={item.key}>
                {index > 0 && (
                  <Box component="li" aria-hidden="true" sx={{ mx: 1 }}>
                    /
                  </Box>
                )}
                <li>{item}</li>
              </Fragment>
            ))}
          </Box>
        </Box>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 600, fontSize: { xs: 24, sm: 32 } }}>
          {title}
        </Typography>
      </Box>
      {actions}
    </Box>
  );
}

/** Placeholder content of a page whose content comes in a later issue: heading and an empty state. */
export function ComingSoon({ title, crumbs }: { title: string; crumbs?: [string, string?][] }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={title} crumbs={crumbs ?? []} />
      <Suspense fallback={null}>
        <Alert severity="info">{t('state.comingSoon')}</Alert>
      </Suspense>
    </>
  );
}
