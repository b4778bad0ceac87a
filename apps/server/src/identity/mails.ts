import type { Language } from '@tempora/contracts';
import type { Mail } from './outbox.ts';

/** The e-mail action handler's modes (`#/auth/action?mode=…&oobCode=…`, issue 4). */
export type ActionMode = 'verifyEmail' | 'resetPassword';

const texts: Record<
  Language,
  Record<ActionMode, { subject: string; intro: string; button: string; outro: string }>
> = {
  fr: {
    verifyEmail: {
      subject: 'Confirmez votre adresse e-mail',
      intro: 'Bienvenue sur Tempora. Pour activer votre compte, confirmez votre adresse e-mail :',
      button: 'Confirmer mon adresse',
      outro: "Ce lien est valable 24 heures. Si vous n'avez pas créé de compte, ignorez ce message.",
    },
    resetPassword: {
      subject: 'Réinitialisation de votre mot de passe',
      intro: 'Vous avez demandé à réinitialiser votre mot de passe Tempora :',
      button: 'Choisir un nouveau mot de passe',
      outro:
        "Ce lien est valable 1 heure et ne sert qu'une fois. Si vous n'avez rien demandé, ignorez ce message.",
    },
  },
  en: {
    verifyEmail: {
      subject: 'Confirm your e-mail address',
      intro: 'Welcome to Tempora. To activate your account, confirm your e-mail address:',
      button: 'Confirm my address',
      outro: 'This link is valid for 24 hours. If you did not create an account, ignore this message.',
    },
    resetPassword: {
      subject: 'Reset your password',
      intro: 'You asked to reset your Tempora password:',
      button: 'Choose a new password',
      outro: 'This link is valid for 1 hour and works once. If you did not ask for it, ignore this message.',
    },
  },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The link the web client's action handler opens. */
export function actionLink(baseUrl: string, mode: ActionMode, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/#/auth/action?mode=${mode}&oobCode=${encodeURIComponent(code)}`;
}

/** A verification or reset mail in the user's language. */
export function actionMail(to: string, lng: Language, mode: ActionMode, link: string): Mail {
  const t = texts[lng][mode];
  return {
    to,
    subject: `Tempora — ${t.subject}`,
    text: `${t.intro}\n\n${link}\n\n${t.outro}\n`,
    html: `<p>${escapeHtml(t.intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t.button)}</a></p><p>${escapeHtml(t.outro)}</p>`,
  };
}

const noticeTexts: Record<Language, { subject: string; body: string[] }> = {
  fr: {
    subject: 'Tentatives de connexion à votre compte',
    body: [
      'De nombreuses tentatives de connexion à votre compte Tempora ont échoué : quelqu’un essaie peut-être de deviner votre mot de passe.',
      'Votre compte n’est pas bloqué : depuis un navigateur où vous vous êtes déjà connecté, votre mot de passe fonctionne comme d’habitude. Ailleurs, les essais sont ralentis pendant quelque temps.',
      'Pour vous connecter tout de suite depuis un nouveau navigateur, ou si vous craignez que votre mot de passe soit connu, réinitialisez-le depuis ce navigateur :',
    ],
  },
  en: {
    subject: 'Sign-in attempts on your account',
    body: [
      'Many sign-in attempts on your Tempora account have failed: someone may be trying to guess your password.',
      'Your account is not locked: from a browser where you have signed in before, your password works as usual. Elsewhere, attempts are slowed down for a while.',
      'To sign in from a new browser right away, or if you fear your password is known, reset it from that browser:',
    ],
  },
};

/**
 * The one notice an account gets when a password spray against it starts (issue 25): sent when
 * its failed sign-ins reach the backoff threshold, once per spray.
 */
export function signInNoticeMail(to: string, lng: Language, baseUrl: string): Mail {
  const t = noticeTexts[lng];
  const link = `${baseUrl.replace(/\/+$/, '')}/#/auth/forgot-password`;
  return {
    to,
    subject: `Tempora — ${t.subject}`,
    text: `${t.body.join('\n\n')}\n\n${link}\n`,
    html: `${t.body.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}
