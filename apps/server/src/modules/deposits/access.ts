import type { FastifyRequest } from 'fastify';
import type { Sql } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { isOrganiserStaff } from '../../policy/policy.ts';
import * as repo from './repository.ts';

/** The caller's relation to a deposit (issue 18's abilities). */
export type DepositRole = 'captain' | 'member' | 'staff';

/**
 * Loads a deposit and the caller's role. The 404-vs-403 rule (issue 25, one for every deposit
 * route): 401 when anonymous, before anything is looked up; 404 DEPOSIT_NOT_FOUND, the same
 * answer, when the deposit does not exist or the caller has no part in it (a stranger, another
 * organisation's staff), so ids cannot be probed; 403 only for a party to the deposit acting
 * beyond its role (a member where only the captain may act). The captain of their own deposit
 * acts as captain even when also staff.
 */
export async function depositAccess(
  request: FastifyRequest,
  sql: Sql,
  id: string,
  allowed: readonly DepositRole[],
): Promise<{ deposit: repo.DepositRow; role: DepositRole }> {
  const user = request.user;
  if (!user) throw errors.unauthorized();
  const notFound = () => errors.notFound('DEPOSIT_NOT_FOUND', `No deposit '${id}'`);
  const deposit = await repo.findDeposit(sql, id);
  if (!deposit) throw notFound();
  let role: DepositRole | null = null;
  if (deposit.captainSub === user.sub) role = 'captain';
  else if (isOrganiserStaff(request, deposit.organisationId)) role = 'staff';
  else if (await repo.isMember(sql, id, user.sub)) role = 'member';
  if (!role) throw notFound();
  if (!allowed.includes(role)) throw errors.forbidden(`Not allowed on deposit '${id}'`);
  return { deposit, role };
}
