import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  ConsoleOrganisation,
  Invitation,
  InvitationCreate,
  InvitationPreview,
  Member,
  OrganisationCreate,
  OrganisationPatch,
  OrganisationRole,
} from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const base = 'apiUrlBase' as const;

/** `GET console/organisations`: the caller's organisations with their role. */
export const organisationsQuery = () =>
  queryOptions({
    queryKey: ['console', 'organisations'] as const,
    queryFn: ({ signal }) => apiGet<ConsoleOrganisation[]>(base, 'console/organisations', { signal }),
  });
export const useOrganisations = () => useQuery(organisationsQuery());

/** `GET console/organisations/{id}`. */
export const organisationQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['console', 'organisation', orgId] as const,
    queryFn: ({ signal }) =>
      apiGet<ConsoleOrganisation>(base, `console/organisations/${enc(orgId)}`, { signal }),
  });
export const useOrganisation = (orgId: string) => useQuery(organisationQuery(orgId));

export const createOrganisation = (input: OrganisationCreate) =>
  apiPost<ConsoleOrganisation>(base, 'console/organisations', input);

export const patchOrganisation = (orgId: string, patch: OrganisationPatch) =>
  apiRequest<ConsoleOrganisation>(base, `console/organisations/${enc(orgId)}`, {
    method: 'PATCH',
    body: patch,
  });

/** `GET console/organisations/{id}/members`. */
export const membersQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['console', 'organisation', orgId, 'members'] as const,
    queryFn: ({ signal }) =>
      apiGet<Member[]>(base, `console/organisations/${enc(orgId)}/members`, { signal }),
  });
export const useMembers = (orgId: string) => useQuery(membersQuery(orgId));

export const setMemberRole = (orgId: string, sub: string, role: OrganisationRole) =>
  apiRequest<Member>(base, `console/organisations/${enc(orgId)}/members/${enc(sub)}`, {
    method: 'PATCH',
    body: { role },
  });

export const removeMember = (orgId: string, sub: string) =>
  apiRequest<void>(base, `console/organisations/${enc(orgId)}/members/${enc(sub)}`, { method: 'DELETE' });

/** `GET console/organisations/{id}/invitations` (owners): pending invitations. */
export const invitationsQuery = (orgId: string, enabled = true) =>
  queryOptions({
    queryKey: ['console', 'organisation', orgId, 'invitations'] as const,
    queryFn: ({ signal }) =>
      apiGet<Invitation[]>(base, `console/organisations/${enc(orgId)}/invitations`, { signal }),
    enabled,
  });

export const invite = (orgId: string, input: InvitationCreate) =>
  apiPost<Invitation>(base, `console/organisations/${enc(orgId)}/invitations`, input);

export const revokeInvitation = (orgId: string, id: string) =>
  apiRequest<void>(base, `console/organisations/${enc(orgId)}/invitations/${enc(id)}`, { method: 'DELETE' });

/** `GET console/invitations/{token}`: what the link invites to. */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ['console', 'invitation', token] as const,
    queryFn: ({ signal }) => apiGet<InvitationPreview>(base, `console/invitations/${enc(token)}`, { signal }),
    retry: false,
  });

export const acceptInvitation = (token: string) =>
  apiPost<ConsoleOrganisation>(base, `console/invitations/${enc(token)}/accept`);
