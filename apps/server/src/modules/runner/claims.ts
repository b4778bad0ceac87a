import crypto from 'node:crypto';
import type { ClaimCreated, ClaimSuggestion, Language } from '@tempora/contracts';
import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import type { Mail } from '../../identity/outbox.ts';
import { recordAudit } from '../../lib/audit.ts';
import { linkAccount } from '../participants/port.ts';
import * as repo from './repository.ts';

/** A code is valid for an hour, and five wrong tries close the claim. */
const CODE_TTL_MINUTES = 60;
const MAX_ATTEMPTS = 5;

export interface ClaimsDeps {
  database: Database;
  /** Sends through the outbox (secrets masked in its stored copy). */
  send: (mail: Mail) => Promise<void>;
  publicUrl: string;
  /** The context whose participant changed account (its results reload). */
  changed: (db: string) => Promise<void>;
}

const hash = (code: string) => crypto.createHash('sha256').update(code).digest('hex');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `jane.doe@example.org` → `j•••@example.org`: enough to recognise one's address, no more. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/**
 * Claims (issue 40, "a claim is proven, never guessed"): a result timed without an account
 * becomes mine when I enter the code sent to the e-mail the organiser has for that entry, or,
 * when the organiser has none, when the organiser approves. Until then it is never mine.
 */
export function createClaims(deps: ClaimsDeps) {
  const { database } = deps;

  function claimMail(
    to: string,
    lng: Language,
    claimId: string,
    code: string,
    c: repo.Claimable,
    who: string,
  ): Mail {
    const t = sharedLocales[lng].mails.runnerClaim;
    const values = { event: c.eventName, race: c.raceName, bib: c.bib ?? '—', account: who };
    const link = `${deps.publicUrl.replace(/\/+$/, '')}/#/me/results?claim=${claimId}&code=${code}`;
    const intro = interpolate(t.intro, values);
    return {
      to,
      subject: `Tempora — ${interpolate(t.subject, values)}`,
      text: `${intro}\n\n${t.code}\n\n${code}\n\n${link}\n\n${t.outro}\n`,
      html: `<p>${escapeHtml(intro)}</p><p>${escapeHtml(t.code)}</p><p style="font-size:24px;letter-spacing:4px"><b>${code}</b></p><p><a href="${escapeHtml(link)}">${escapeHtml(t.button)}</a></p><p>${escapeHtml(t.outro)}</p>`,
      secrets: [code],
      link,
    };
  }

  /** Links the result to the claimant (when nobody has it yet) and closes the claim. */
  async function confirm(claim: repo.ClaimRow, by: string | null): Promise<void> {
    const db = await database.transaction(async (tx) => {
      const linked = await linkAccount(tx, claim.participantId, claim.accountId);
      if (!linked) {
        await repo.decideClaim(tx, claim.id, 'cancelled', by);
        throw errors.conflict('RESULT_ALREADY_CLAIMED', 'This result already belongs to an account');
      }
      await repo.decideClaim(tx, claim.id, 'confirmed', by);
      return linked;
    });
    await deps.changed(db);
  }

  return {
    async suggestions(accountId: string): Promise<ClaimSuggestion[]> {
      const account = await repo.findAccount(database, accountId);
      if (!account) throw errors.unauthorized();
      const [found, pending] = await Promise.all([
        repo.suggestionsFor(database, account),
        repo.pendingClaimsOf(database, accountId),
      ]);
      return found.map((c) => ({
        participantId: c.participantId,
        eventName: c.eventName,
        organisationName: c.organisationName,
        raceName: c.raceName,
        date: c.date,
        bib: c.bib,
        method: c.email ? 'email' : 'organiser',
        maskedEmail: c.email ? maskEmail(c.email) : null,
        pendingClaimId: pending.get(c.participantId) ?? null,
      }));
    },

    /** Opens a claim: a code to the entry's e-mail, or a request to the organiser. */
    async open(accountId: string, participantId: string): Promise<ClaimCreated> {
      const account = await repo.findAccount(database, accountId);
      if (!account) throw errors.unauthorized();
      const claimable = await repo.findClaimable(database, participantId);
      // Only a suggested result may be claimed: someone else's name is never reached by its id.
      const suggested = (await repo.suggestionsFor(database, account)).some(
        (s) => s.participantId === participantId,
      );
      if (!claimable || !suggested) {
        if (claimable?.accountId === accountId)
          throw errors.conflict('RESULT_ALREADY_YOURS', 'This result is already yours');
        throw errors.notFound('RESULT_NOT_FOUND', 'No result of that name and birth year to claim');
      }
      if (!claimable.email) {
        const id = await repo.openClaim(
          database,
          { participantId, accountId, method: 'organiser', codeHash: null },
          CODE_TTL_MINUTES,
        );
        return { id, method: 'organiser', maskedEmail: null };
      }
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      const id = await repo.openClaim(
        database,
        { participantId, accountId, method: 'email', codeHash: hash(code) },
        CODE_TTL_MINUTES,
      );
      await deps.send(claimMail(claimable.email, account.lng, id, code, claimable, account.email));
      return { id, method: 'email', maskedEmail: maskEmail(claimable.email) };
    },

    /** Proves an e-mail claim by its code. */
    async prove(accountId: string, claimId: string, code: string): Promise<void> {
      const claim = await repo.findClaim(database, claimId);
      if (!claim || claim.accountId !== accountId || claim.method !== 'email' || claim.status !== 'pending')
        throw errors.notFound('CLAIM_NOT_FOUND', 'No open claim of yours');
      if (claim.expired || claim.attempts >= MAX_ATTEMPTS)
        throw errors.conflict('CLAIM_EXPIRED', 'This code is no longer valid: ask for a new one');
      const given = Buffer.from(hash(code.trim()));
      if (!claim.codeHash || !crypto.timingSafeEqual(given, Buffer.from(claim.codeHash))) {
        await repo.countAttempt(database, claim.id);
        throw errors.badRequest('CLAIM_CODE_INVALID', 'This code is not the one sent', [
          { field: 'code', message: 'This code is not the one sent' },
        ]);
      }
      await confirm(claim, accountId);
      const claimable = await repo.findClaimable(database, claim.participantId);
      await recordAudit(database, [
        {
          subject: 'participant',
          subjectId: claim.participantId,
          action: 'claim.proven',
          eventId: claimable?.eventId ?? null,
          actorSub: accountId,
          detail: { claimId: claim.id },
        },
      ]);
    },

    organiserClaims: (eventId: string) => repo.organiserClaimsOf(database, eventId),

    /** The organiser approves or refuses a claim on an entry without an e-mail (audited). */
    async decide(
      event: { id: string; organisationId: string },
      claimId: string,
      approve: boolean,
      actorSub: string,
    ): Promise<void> {
      const claim = await repo.findEventClaim(database, event.id, claimId);
      if (claim?.status !== 'pending') throw errors.notFound('CLAIM_NOT_FOUND', 'No open claim');
      if (approve) await confirm(claim, actorSub);
      else await repo.decideClaim(database, claim.id, 'refused', actorSub);
      await recordAudit(database, [
        {
          subject: 'participant',
          subjectId: claim.participantId,
          action: approve ? 'claim.approved' : 'claim.refused',
          eventId: event.id,
          organisationId: event.organisationId,
          actorSub,
          detail: { claimId: claim.id },
        },
      ]);
    },
  };
}

export type Claims = ReturnType<typeof createClaims>;
