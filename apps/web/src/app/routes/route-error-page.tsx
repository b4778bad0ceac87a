import { Component, type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FullPageMessage } from '../../components/full-page-message.tsx';

/**
 * A page that failed to render or to load its chunk (e.g. after a deployment) shows a translated
 * message and a way home, never a stack trace.
 */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  useEffect(() => console.warn('route error', error), [error]);
  return <FullPageMessage code="!" title={t('routeError.title')} text={t('routeError.text')} />;
}

class Boundary extends Component<{ resetKey: string; children: ReactNode }, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(
    props: { resetKey: string },
    state: { error: unknown; key: string },
  ): { error: unknown; key: string } | null {
    // Another page: try again.
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }
  override render() {
    return this.state.error ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}

/** The routes' error boundary: the error page until the next navigation. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
