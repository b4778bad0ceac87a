/**
 * A full race's waitlist (issue 38): first in, first out. When places are freed (the organiser
 * releases N, a cancellation frees one) the next waiting people are invited, each for a set time;
 * an invitation not used in time expires and the place passes to the next. Never more valid
 * invitations than places free for them, never anyone invited twice, never someone skipped.
 */

/** `closed`: the race's registration closed while still waiting (told once, no place to come). */
export type WaitState = 'waiting' | 'invited' | 'entered' | 'expired' | 'left' | 'closed';

export interface WaitItem {
  readonly id: string;
  /** Position of arrival (the database's sequence): first in, first out. */
  readonly seq: number;
  readonly state: WaitState;
  /** While `invited`: the ISO instant the invitation ends. */
  readonly invitedUntil: string | null;
}

/** Invitations still valid at `now`. */
export function openInvitations(items: readonly WaitItem[], now: string): WaitItem[] {
  return items.filter((i) => i.state === 'invited' && i.invitedUntil != null && i.invitedUntil > now);
}

/** Invitations whose time ran out at `now`: they expire (their place passes on). */
export function lapsedInvitations(items: readonly WaitItem[], now: string): WaitItem[] {
  return items.filter((i) => i.state === 'invited' && (i.invitedUntil == null || i.invitedUntil <= now));
}

/**
 * Who to invite now, in order of arrival: as many waiting people as `freePlaces` less the
 * invitations still open (each of those is a place promised already).
 */
export function nextToInvite(items: readonly WaitItem[], freePlaces: number, now: string): WaitItem[] {
  const room = Math.max(0, freePlaces - openInvitations(items, now).length);
  return items
    .filter((i) => i.state === 'waiting')
    .sort((a, b) => a.seq - b.seq)
    .slice(0, room);
}

/**
 * One step of the waitlist at `now` with `freePlaces`: lapsed invitations expire, then the next
 * people are invited until `now + validMinutes`. Returns the new list and who was invited.
 */
export function advanceWaitlist(
  items: readonly WaitItem[],
  freePlaces: number,
  now: string,
  validMinutes: number,
): { items: WaitItem[]; invited: WaitItem[] } {
  const lapsed = new Set(lapsedInvitations(items, now).map((i) => i.id));
  const step: WaitItem[] = items.map((i) =>
    lapsed.has(i.id) ? { ...i, state: 'expired', invitedUntil: null } : i,
  );
  const until = new Date(Date.parse(now) + validMinutes * 60_000).toISOString();
  const chosen = new Set(nextToInvite(step, freePlaces, now).map((i) => i.id));
  const next = step.map((i) =>
    chosen.has(i.id) ? { ...i, state: 'invited' as const, invitedUntil: until } : i,
  );
  return { items: next, invited: next.filter((i) => chosen.has(i.id)) };
}
