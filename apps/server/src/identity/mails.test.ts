import { describe, expect, it } from 'vitest';
import { invitationMail } from '../modules/console/organisations/mails.ts';
import { actionLink, actionMail, signInNoticeMail } from './mails.ts';

// The mails' words come from the label source's `mails` namespace (issue 30); these pin what the
// reader gets, placeholders filled and the HTML escaped.
describe('mails from the label source', () => {
  it('writes the verification and reset mails in the user’s language', () => {
    const link = 'https://app.test/#/auth/action?mode=verifyEmail&oobCode=c';
    const fr = actionMail('a@b.test', 'fr', 'verifyEmail', link);
    expect(fr.subject).toBe('Tempora — Confirmez votre adresse e-mail');
    expect(fr.text).toBe(
      `Bienvenue sur Tempora. Pour activer votre compte, confirmez votre adresse e-mail :\n\n${link}\n\nCe lien est valable 24 heures. Si vous n'avez pas créé de compte, ignorez ce message.\n`,
    );
    expect(fr.html).toContain('Si vous n&#39;avez pas créé de compte');
    expect(actionMail('a@b.test', 'en', 'resetPassword', link).subject).toBe('Tempora — Reset your password');
  });

  it('leads a verification link back to an invitation when asked (issue 43)', () => {
    expect(actionLink('https://app.test/', 'verifyEmail', 'c', '/console/invitations/abcDEF123_-x')).toBe(
      'https://app.test/#/auth/action?mode=verifyEmail&oobCode=c&next=%2Fconsole%2Finvitations%2FabcDEF123_-x',
    );
    expect(actionLink('https://app.test', 'verifyEmail', 'c')).toBe(
      'https://app.test/#/auth/action?mode=verifyEmail&oobCode=c',
    );
  });

  it('writes the sign-in notice as three paragraphs and the link', () => {
    const mail = signInNoticeMail('a@b.test', 'en', 'https://app.test/');
    expect(mail.subject).toBe('Tempora — Sign-in attempts on your account');
    expect(mail.text.split('\n\n')).toHaveLength(4);
    expect(mail.text).toMatch(
      /^Many sign-in attempts .*\n\nhttps:\/\/app\.test\/#\/auth\/forgot-password\n$/s,
    );
  });

  it('fills the invitation’s organisation, inviter, role and days', () => {
    const mail = invitationMail('a@b.test', 'fr', {
      organisation: 'Run & Co',
      inviter: 'Ann',
      role: 'timekeeper',
      link: 'https://app.test/#/console/invitations/t',
      token: 't',
      days: 7,
    });
    expect(mail.subject).toBe('Tempora — Invitation à rejoindre Run & Co');
    expect(mail.text).toContain('Ann vous invite à rejoindre Run & Co sur Tempora (rôle : chronométreur).');
    expect(mail.text).toContain('Ce lien est valable 7 jours');
    expect(mail.html).toContain('Run &#38; Co');
  });
});
