import { type CanProps, Can as CaslCan } from '@casl/react';
import type { Action, AppAbility, Subject } from '@tempora/contracts';
import type { ReactNode } from 'react';
import { useAuth } from './auth-context.tsx';

/**
 * `<Can I="manage" a="Confirmation">…</Can>`: renders its children only when the user's
 * abilities (spec §6, from `permission/get`) allow it. @casl/react 7's `Can`, bound to our
 * ability type; pass it `useAuth().ability` (`this`), null for a visitor who is not signed in.
 */
export const Can = CaslCan as (props: CanProps<AppAbility>) => ReactNode;

/** Whether the signed-in user may do `action` on `subject` (false while signed out). */
export function useCan(action: Action, subject: Subject): boolean {
  return useAuth().ability?.can(action, subject) ?? false;
}
