/** Session storage key of the route a visitor wanted before being sent to sign in. */
export const INTENDED_ROUTE = 'intendedRoute';

/** Where to go after sign-in: the remembered route, else `/` (spec §2); it stays remembered. */
export function intendedRoute(storage: Pick<Storage, 'getItem'> = sessionStorage): string {
  const intended = storage.getItem(INTENDED_ROUTE);
  return intended?.startsWith('/') && !intended.startsWith('/login') ? intended : '/';
}

/** Where to go after sign-in: the remembered route (once), else `/` (spec §2). */
export function takeIntendedRoute(storage: Pick<Storage, 'getItem' | 'removeItem'> = sessionStorage): string {
  const intended = intendedRoute(storage);
  storage.removeItem(INTENDED_ROUTE);
  return intended;
}

/** The remembered route without taking it (the sign-in page names the invitation it leads to). */
export function peekIntendedRoute(storage: Pick<Storage, 'getItem'> = sessionStorage): string | null {
  return storage.getItem(INTENDED_ROUTE);
}

/** The invitation token of a console invitation route (`/console/invitations/{token}`), or null. */
export function invitationToken(route: string | null | undefined): string | null {
  return /^\/console\/invitations\/([A-Za-z0-9_-]{8,200})$/.exec(route ?? '')?.[1] ?? null;
}

/**
 * An event's entry page (or a team's) a runner signed out came from (issue 38): an account made on
 * the way leads back there once its e-mail is verified — to the form of the race they chose
 * (`?race=`).
 */
export function entriesRoute(route: string | null | undefined): string | null {
  return /^\/entries\/[A-Za-z0-9_-]{1,100}(\/team\/T[0-9A-Za-z_-]{22}|\?race=[A-Za-z0-9_-]{1,100})?$/.test(
    route ?? '',
  )
    ? (route as string)
    : null;
}

/** Remembers the page to come back to after signing in or up (the entry page's buttons). */
export function rememberRoute(route: string, storage: Pick<Storage, 'setItem'> = sessionStorage): void {
  storage.setItem(INTENDED_ROUTE, route);
}
