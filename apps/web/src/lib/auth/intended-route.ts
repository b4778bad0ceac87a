/** Session storage key of the route a visitor wanted before being sent to sign in. */
export const INTENDED_ROUTE = 'intendedRoute';

/** Where to go after sign-in: the remembered route (once), else `/` (spec §2). */
export function takeIntendedRoute(storage: Pick<Storage, 'getItem' | 'removeItem'> = sessionStorage): string {
  const intended = storage.getItem(INTENDED_ROUTE);
  storage.removeItem(INTENDED_ROUTE);
  return intended?.startsWith('/') && !intended.startsWith('/login') ? intended : '/';
}
