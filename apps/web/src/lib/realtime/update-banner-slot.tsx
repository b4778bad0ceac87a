import { lazy, Suspense, useEffect, useState } from 'react';

/**
 * Where the new-version banner goes (`update-banner.tsx`): its checks and its view are loaded once
 * the page is idle, so they stay out of every page's first JavaScript (issue 19's budget). A page
 * is not checked before then: the first check is at a reconnection or after 15 minutes anyway.
 */
const UpdateBanner = lazy(() => import('./update-banner.tsx').then((m) => ({ default: m.UpdateBanner })));

export function UpdateBannerSlot() {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setIdle(true), 3_000);
    return () => clearTimeout(timer);
  }, []);
  if (!idle) return null;
  return (
    <Suspense fallback={null}>
      <UpdateBanner />
    </Suspense>
  );
}
