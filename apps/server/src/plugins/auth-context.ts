import type { AbilityUser, AppAbility } from '@tempora/contracts';

/**
 * Who is calling: set on every request by the identity plugin from the bearer ID token (built-in
 * provider or a trusted OIDC issuer). `null` for anonymous calls. Routes check abilities with
 * `request.ability.can(action, subject(...))`; the same rules `permission/get` returns.
 */
export interface AuthUser extends AbilityUser {
  issuer: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    ability: AppAbility;
  }
}
