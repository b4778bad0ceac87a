import { useOrganisation } from './api/organisations.ts';
import { abilityForRole, inOrg } from './role-ability.ts';

/** What the caller may do in an organisation's console (from their role there). */
export function useOrgAbility(orgId: string) {
  const org = useOrganisation(orgId);
  const ability = org.data ? abilityForRole(orgId, org.data.role) : null;
  return {
    loaded: !!ability,
    can: (action: 'create' | 'update' | 'delete' | 'manage', subject: string) =>
      ability?.can(action, inOrg(subject, orgId)) ?? false,
  };
}
