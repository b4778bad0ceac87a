import type { Language, OrganisationRole } from '@tempora/contracts';
import type { Mail } from '../../../identity/outbox.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const roles: Record<Language, Record<OrganisationRole, string>> = {
  en: { owner: 'owner', staff: 'staff', timekeeper: 'timekeeper' },
  fr: { owner: 'propriétaire', staff: 'équipe', timekeeper: 'chronométreur' },
};

/** The link the console's invitation page opens. */
export function invitationLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/#/console/invitations/${encodeURIComponent(token)}`;
}

/** The invitation mail in the inviter's language. */
export function invitationMail(
  to: string,
  lng: Language,
  input: {
    organisation: string;
    inviter: string;
    role: OrganisationRole;
    link: string;
    token: string;
    days: number;
  },
): Mail {
  const role = roles[lng][input.role];
  const t =
    lng === 'fr'
      ? {
          subject: `Invitation à rejoindre ${input.organisation}`,
          intro: `${input.inviter} vous invite à rejoindre ${input.organisation} sur Tempora (rôle : ${role}).`,
          button: "Accepter l'invitation",
          outro: `Ce lien est valable ${input.days} jours et ne sert qu'une fois. Créez un compte avec cette adresse ou connectez-vous pour l'accepter.`,
        }
      : {
          subject: `Invitation to join ${input.organisation}`,
          intro: `${input.inviter} invites you to join ${input.organisation} on Tempora (role: ${role}).`,
          button: 'Accept the invitation',
          outro: `This link is valid for ${input.days} days and works once. Sign up with this address or sign in to accept it.`,
        };
  return {
    to,
    subject: `Tempora — ${t.subject}`,
    text: `${t.intro}\n\n${input.link}\n\n${t.outro}\n`,
    html: `<p>${escapeHtml(t.intro)}</p><p><a href="${escapeHtml(input.link)}">${escapeHtml(t.button)}</a></p><p>${escapeHtml(t.outro)}</p>`,
    // The token is masked in the stored outbox (issue 13); the link is printed in development.
    secrets: [input.token],
    link: input.link,
  };
}
