import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** The one query client: no retry on 4xx answers (they will not change), two on network failures. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (count, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
  });
}
