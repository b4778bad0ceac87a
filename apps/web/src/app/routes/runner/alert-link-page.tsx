import { Alert } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { useAlertLink } from '../../../features/runner/api/alerts.ts';

/**
 * `/alerts/confirm/{token}` and `/alerts/unsubscribe/{token}` (issue 40): the links of the alert
 * mails and push messages, acted on when opened (one click).
 */
export function AlertLinkPage({ kind }: { kind: 'confirm' | 'unsubscribe' }) {
  const { token = '' } = useParams();
  const { t } = useTranslation('runner');
  const link = useAlertLink(kind);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    link.mutate(token);
  }, [link, token]);
  const title = t(`alerts.${kind}Title`);
  return (
    <>
      <PageHeader title={title} crumbs={[[title]]} />
      {link.isPending || link.isIdle ? (
        <PageLoading />
      ) : link.isSuccess ? (
        <Alert severity="success" data-testid="alert-link-done">
          {t(`alerts.${kind}Done`)}
        </Alert>
      ) : (
        <Alert severity="error" role="alert">
          {t('alerts.linkInvalid')}
        </Alert>
      )}
    </>
  );
}

export function ConfirmAlertsPage() {
  return <AlertLinkPage kind="confirm" />;
}
export default function UnsubscribePage() {
  return <AlertLinkPage kind="unsubscribe" />;
}
