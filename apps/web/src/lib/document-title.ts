import { useEffect } from 'react';
import { useBranding } from './branding.tsx';

/**
 * Sets the tab's title to the page's own (issue 19: a distinct document title per page), followed
 * by the product name; the product name alone again when the page goes.
 */
export function useDocumentTitle(title: string | null | undefined) {
  const { productName } = useBranding();
  useEffect(() => {
    if (!title) return;
    document.title = `${title} · ${productName}`;
    return () => {
      document.title = productName;
    };
  }, [title, productName]);
}
