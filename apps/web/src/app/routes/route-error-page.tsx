import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { FullPageMessage } from '../../components/full-page-message.tsx';

/**
 * The router's error boundary: a page that failed to render or to load its chunk (e.g. after a
 * deployment) shows a translated message and a way home, never a stack trace.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => console.warn('route error', error), [error]);
  return <FullPageMessage code="!" title={t('routeError.title')} text={t('routeError.text')} />;
}
