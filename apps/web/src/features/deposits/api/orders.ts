import { useQuery } from '@tanstack/react-query';
import type { PayStart, ProviderInfo } from '@tempora/contracts';
import { apiDownload, apiGet, apiPost } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;

/** Which payment providers this server offers (bank transfer always). */
export function useProviders() {
  return useQuery({
    queryKey: ['payments', 'providers'] as const,
    queryFn: ({ signal }) => apiGet<ProviderInfo>('apiUrlBase', 'payments/providers', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** Starts paying an order online; the return URL is our `paymentok` page (never proof of payment). */
export function startPayment(orderId: string, provider: 'mollie' | 'stripe', returnUrl: string) {
  return apiPost<PayStart>('apiUrlBase', `payments/orders/${enc(orderId)}/pay`, { provider, returnUrl });
}

/** Opens an order's receipt (PDF) in a new tab. */
export async function openReceipt(orderId: string) {
  const { blob } = await apiDownload('apiUrlBase', `payments/orders/${enc(orderId)}/receipt.pdf`);
  const url = URL.createObjectURL(blob);
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
