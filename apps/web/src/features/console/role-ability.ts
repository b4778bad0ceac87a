import {
  type AppAbility,
  abilityFromRules,
  type OrganisationRole,
  rulesFor,
} from '@tempora/contracts/abilities';

/**
 * The abilities the server grants in one organisation, computed with the same rules
 * (`rulesFor`) from the caller's role there as the console API reports it. A role of null is
 * platform staff (not a member, manages everything). The client's stored permissions may predate
 * a membership made a moment ago (a new organisation, an accepted invitation); the role is fresh.
 */
export function abilityForRole(organisationId: string, role: OrganisationRole | null): AppAbility {
  return abilityFromRules(
    rulesFor({
      sub: '',
      email: '',
      isPlatformStaff: role === null,
      isConfirmationAccount: false,
      memberships: role ? [{ organisationId, role }] : [],
    }),
  );
}

/** A subject of an organisation, as CASL conditions read it. */
export function inOrg(type: string, organisationId: string) {
  return Object.defineProperty(
    type === 'Organisation' ? { id: organisationId } : { organisationId },
    '__caslSubjectType__',
    { value: type },
  ) as never;
}
