import { z } from 'zod';

/**
 * Identity API contract (built-in identity provider, issue 4). All paths are relative to the
 * environment's `userApiUrlBase` (default `/api/`), except the JWKS at `/.well-known/jwks.json`.
 *
 *   POST auth/sign-up          SignUpRequest        → 201 { sub }          409 EMAIL_IN_USE
 *   POST auth/verify-email     CodeRequest          → { verified: true }   400 CODE_INVALID | CODE_EXPIRED
 *   POST auth/resend-verification { email, lng }    → 202
 *   POST auth/sign-in          SignInRequest        → TokenResponse        401 INVALID_CREDENTIALS, 403 EMAIL_NOT_VERIFIED
 *   POST auth/refresh          { refreshToken }     → TokenResponse        401 REFRESH_INVALID (reuse revokes the family)
 *   POST auth/sign-out         { refreshToken }     → 204
 *   POST auth/forgot-password  { email, lng }       → 202 always (accounts cannot be discovered)
 *   POST auth/reset-password   ResetPasswordRequest → { reset: true }      400 CODE_INVALID | CODE_EXPIRED
 *   GET  user/get                                   → UserProfile          (bearer ID token)
 *   POST user/profile          ProfileUpdate        → { success: boolean } (spec §7; 400 VALIDATION_FAILED)
 *   GET  permission/get                             → Permissions          (spec §7, `apiUrlBase`)
 *   GET  dev/outbox                                 → OutboxMessage[]      (platform staff; codes masked)
 *   GET  /.well-known/jwks.json                     → { keys }             (ES256 public keys of the ID tokens)
 * Every limited endpoint answers 429 RATE_LIMITED with a Retry-After header. Any call carrying a
 * bad, expired or untrusted bearer ID token answers 401 TOKEN_INVALID (the `auth/*` endpoints
 * ignore the header); without one the call is anonymous (`permission/get` then gives the
 * anonymous rules; `user/*` and `dev/outbox` answer 401 UNAUTHORIZED). ID tokens live
 * `expiresIn` seconds (15 min); refresh tokens 30 days; verification codes 24 h, reset codes 1 h.
 * E-mail links open the web client at `#/auth/action?mode=verifyEmail|resetPassword&oobCode=…`.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const languages = ['fr', 'en'] as const;
export type Language = (typeof languages)[number];

export const emailSchema = z
  .email()
  .max(254)
  .transform((v) => v.trim().toLowerCase());
export const passwordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
export const languageSchema = z.enum(languages).default('fr');

/**
 * Where the verification link leads after verifying (issue 43: an invitee signing up went back to
 * the home page): an invitation of the console only, so the link can send nobody elsewhere.
 */
export const afterVerifySchema = z
  .string()
  .regex(
    /^\/console\/invitations\/[A-Za-z0-9_-]{8,200}$|^\/entries\/[A-Za-z0-9_-]{1,100}(\/team\/T[0-9A-Za-z_-]{22}|\?race=[A-Za-z0-9_-]{1,100})?$/,
    'an invitation of the console, or an event’s entry page (an account made on the way, issue 38)',
  );
export const signUpRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  lng: languageSchema,
  next: afterVerifySchema.optional(),
});
export const signInRequestSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(PASSWORD_MAX),
});
export const codeRequestSchema = z.object({ code: z.string().min(10).max(200) });
export const emailRequestSchema = z.object({ email: emailSchema, lng: languageSchema });
export const resetPasswordRequestSchema = z.object({
  code: z.string().min(10).max(200),
  password: passwordSchema,
});
export const refreshRequestSchema = z.object({ refreshToken: z.string().min(10).max(500) });

export const tokenResponseSchema = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  /** Seconds until the ID token expires. */
  expiresIn: z.number().int().positive(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const genders = ['M', 'F', 'X'] as const;

/** The profile of spec §3: `sub` (also the realtime channel name) and `profileComplete`, plus display fields. */
export const userProfileSchema = z.object({
  sub: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  profilePicture: z.string().nullable(),
  gender: z.enum(genders).nullable(),
  birthDate: z.string().nullable(),
  nationality: z.string().nullable(),
  club: z.string(),
  lng: z.enum(languages),
  profileComplete: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

const name = z.string().trim().min(1).max(80);
/** The basic-profile form (fields a race entry needs). Birth date ISO `YYYY-MM-DD`, age 5–110. */
export const profileUpdateSchema = z.object({
  firstName: name,
  lastName: name,
  gender: z.enum(genders),
  birthDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) return false;
      const age = (Date.now() - d.getTime()) / (365.25 * 86_400_000);
      return age >= 5 && age <= 110;
    }, 'must be a real date giving an age between 5 and 110'),
  /** IOC or ISO 3166 alpha-3 code, upper case. */
  nationality: z.string().regex(/^[A-Z]{3}$/),
  club: z.string().trim().max(120).default(''),
  lng: z.enum(languages).optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const outboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** `POST /api/auth/sign-up`: the new account (its e-mail address still to verify). */
/**
 * Present (true) only on a development server, which prints e-mail links on its console instead
 * of relying on a mail server (README "First account"): the pages after sign-up and "forgot
 * password" then tell the developer where to look; end users never see that note (issue 43).
 */
const mailLinksInLog = z.literal(true).optional();
export const signUpAnswerSchema = z.object({ sub: z.string(), mailLinksInLog });
/** `POST /api/auth/forgot-password` (202, the same whether or not the account exists). */
export const forgotAnswerSchema = z.object({ mailLinksInLog });
/** `POST /api/auth/verify-email`. */
export const verifiedAnswerSchema = z.object({ verified: z.literal(true) });
/** `POST /api/auth/reset-password`. */
export const resetAnswerSchema = z.object({ reset: z.boolean() });
/** `POST /api/user/profile`. */
export const profileSavedSchema = z.object({ success: z.boolean() });
export type ProfileSaved = z.infer<typeof profileSavedSchema>;
/** `GET /.well-known/jwks.json`: the public keys ID tokens are signed with. */
export const jwksSchema = z.object({
  keys: z.array(z.object({ kty: z.string().optional(), kid: z.string().optional() })),
});
