import type { HealthAnswer, ReadyAnswer } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** One reachability probe: whether it answered, its round-trip time, and what it said (or the error). */
export interface Probe {
  ok: boolean;
  ms: number;
  detail: string;
}

/** The probes the diagnostics page runs, in its order. */
export const PROBES = ['health', 'ready', 'events'] as const;

async function probe(run: () => Promise<string>): Promise<Probe> {
  const t0 = performance.now();
  try {
    const detail = await run();
    return { ok: true, ms: Math.round(performance.now() - t0), detail };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - t0), detail: (error as Error).message };
  }
}

/**
 * Probes the API one call after the other (`GET health`, `GET ready`, `GET events`: its count), for
 * the diagnostics page (`/test`): each call's round-trip time is its own, not shared with the others.
 */
export async function probeApi(): Promise<Record<(typeof PROBES)[number], Probe>> {
  const health = await probe(async () => (await apiGet<HealthAnswer>('apiUrlBase', 'health')).status);
  const ready = await probe(async () => (await apiGet<ReadyAnswer>('apiUrlBase', 'ready')).status);
  const events = await probe(async () =>
    String((await apiGet<unknown[]>('eventsApiUrlBase', 'events')).length),
  );
  return { health, ready, events };
}
