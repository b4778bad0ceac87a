import { Alert, Box, Breadcrumbs, CircularProgress, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../lib/api-client.ts';

/** A centred spinner with an accessible label. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }} role="status" aria-live="polite">
      <CircularProgress aria-label={t('state.loading')} />
    </Box>
  );
}

/** A translated error message for a failed load (never a stack trace). */
export function PageError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const key =
    error instanceof ApiError
      ? error.isNetwork
        ? 'state.network'
        : error.status === 404
          ? 'state.notFound'
          : 'state.error'
      : 'state.error';
  return (
    <Alert severity="error" role="alert" sx={{ my: 2 }}>
      {t(key)}
    </Alert>
  );
}

/** Page heading with breadcrumbs (each `[label, to?]`). */
export function PageHeader({
  title,
  crumbs = [],
  actions,
}: {
  title: string;
  crumbs?: [string, string?][];
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ mb: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 1 }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Breadcrumbs aria-label={t('nav.breadcrumbs')} sx={{ fontSize: 14 }}>
          <Link component={RouterLink} to="/" underline="hover" color="inherit">
            {t('nav.home')}
          </Link>
          {crumbs.map(([label, to]) =>
            to ? (
              <Link key={label} component={RouterLink} to={to} underline="hover" color="inherit">
                {label}
              </Link>
            ) : (
              <Typography key={label} color="text.primary" sx={{ fontSize: 14 }}>
                {label}
              </Typography>
            ),
          )}
        </Breadcrumbs>
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
      <Alert severity="info">{t('state.comingSoon')}</Alert>
    </>
  );
}
