import { createDashboard } from './service/dashboard.ts';
import { createOps } from './service/ops.ts';
import type { PickupDeps } from './service/shared.ts';
import { createViews } from './service/views.ts';

export type { PickupActor, PickupDeps } from './service/shared.ts';

/**
 * Race-day pickup (issue 39), composed of parts that each hold one responsibility: `views`
 * (the volunteer's list, a scanned card, conflicts), `ops` (handouts, bibs, chips, money, late
 * entries, each once by its id) and `dashboard` (the organiser's figures and DNS).
 */
export function createPickupService(deps: PickupDeps) {
  return { views: createViews(deps), ops: createOps(deps), dashboard: createDashboard(deps) };
}

export type PickupService = ReturnType<typeof createPickupService>;
