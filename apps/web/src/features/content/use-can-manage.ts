import { subject } from '@casl/ability';
import type { Action } from '@tempora/contracts';
import { useAuth } from '../../lib/auth/auth-context.tsx';

/**
 * Whether the signed-in user may `action` a content subject of an organisation: the same CASL
 * rules the server enforces (organisation-scoped); used only to show or hide organiser controls.
 */
export function useCanManage(
  type: 'Event' | 'CmsPage' | 'Contact' | 'Stream' | 'Photo',
  organisationId: string | undefined,
  action: Action = 'update',
): boolean {
  const { ability, status } = useAuth();
  if (status !== 'signedIn' || !ability || !organisationId) return false;
  return ability.can(action, subject(type, { organisationId }) as never);
}
