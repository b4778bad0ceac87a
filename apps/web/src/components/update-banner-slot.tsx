import { Component, lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';

/**
 * Where the new-version banner goes (`update-banner.tsx`): its checks and its view are loaded once
 * the page is idle, so they stay out of every page's first JavaScript (issue 19's budget). A page
 * is not checked before then: the first check is at a reconnection or after 15 minutes anyway.
 * Its chunk failing to load (offline, issue 26) never takes the page down: the slot stays empty
 * and tries again when the network returns.
 */
const load = () => import('./update-banner.tsx').then((m) => ({ default: m.UpdateBanner }));

export function UpdateBannerSlot() {
  const [idle, setIdle] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => setIdle(true), 3_000);
    return () => clearTimeout(timer);
  }, []);
  // A new lazy component per attempt: React keeps a failed import's error for its component.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the attempt makes a fresh import
  const UpdateBanner = useMemo(() => lazy(load), [attempt]);
  if (!idle) return null;
  return (
    <OptionalChunk key={attempt} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={null}>
        <UpdateBanner />
      </Suspense>
    </OptionalChunk>
  );
}

/**
 * An error boundary for a part of the page that may be left out: an error (a chunk that could
 * not be fetched) shows nothing instead of the page's error screen; `onRetry` is called when the
 * browser is online again.
 */
export class OptionalChunk extends Component<
  { children: ReactNode; onRetry?: () => void },
  { failed: boolean }
> {
  override state = { failed: false };
  private readonly retry = () => this.props.onRetry?.();

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch() {
    window.addEventListener('online', this.retry, { once: true });
  }

  override componentWillUnmount() {
    window.removeEventListener('online', this.retry);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
