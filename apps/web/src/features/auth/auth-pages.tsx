import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Link,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { genders, PASSWORD_MIN, type ProfileUpdate } from '@tempora/contracts';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { paths } from '../../config/paths.ts';
import { ApiError, apiPost } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import {
  entriesRoute,
  invitationToken,
  peekIntendedRoute,
  takeIntendedRoute,
} from '../../lib/auth/intended-route.ts';
import { useBranding } from '../../lib/branding.tsx';
import { useServerTranslations } from '../../lib/server-translations.ts';
import { useInvitationPreview } from './api/get-invitation.ts';
import { InvitationNote } from './components/invitation-note.tsx';

/** A translated message for an identity failure (one message for wrong password and unknown user). */
export function authErrorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'errors.unknown';
  if (error.isNetwork) return 'errors.network';
  const known: Record<string, string> = {
    INVALID_CREDENTIALS: 'errors.credentials',
    EMAIL_IN_USE: 'errors.emailInUse',
    EMAIL_NOT_VERIFIED: 'errors.notVerified',
    RATE_LIMITED: 'errors.tooMany',
    CODE_INVALID: 'errors.codeInvalid',
    CODE_EXPIRED: 'errors.codeExpired',
    VALIDATION_FAILED: 'errors.validation',
  };
  return known[error.code] ?? 'errors.unknown';
}

function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { productName, logo } = useBranding();
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: { xs: 1.5, sm: 2 },
        bgcolor: 'background.default',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 440 }} elevation={2}>
        <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
            <Link
              component={RouterLink}
              to="/"
              underline="none"
              sx={{
                fontWeight: 700,
                color: 'primary.dark',
                display: 'inline-flex',
                alignItems: 'center',
                gap: 1,
              }}
            >
              <Box component="img" src={logo} alt="" sx={{ width: 28, height: 28 }} />
              {productName}
            </Link>
            {/* Issue 43: these pages have no top bar, so the language is chosen here. */}
            <LanguageSwitch />
          </Box>
          <Typography variant="h5" component="h1" sx={{ mt: 1, mb: 2, fontWeight: 600 }}>
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}

/**
 * The invitation the visitor came to sign in for (the guard remembered its route), with the
 * address to prefill (issue 43).
 */
function useInvitationOnTheWay(setEmail: (email: string) => void) {
  const [token] = useState(() => invitationToken(peekIntendedRoute()));
  const invitation = useInvitationPreview(token);
  const invited = invitation.data?.state === 'pending' ? invitation.data : null;
  useEffect(() => {
    if (invited) setEmail(invited.email);
  }, [invited, setEmail]);
  // An entry page a signed-out runner came from (issue 38): the account is made on the way there.
  const [entries] = useState(() => entriesRoute(peekIntendedRoute()));
  return { invited, next: token && invited ? `/console/invitations/${token}` : (entries ?? undefined) };
}

function useSubmit<T>(action: () => Promise<T>, onDone: (value: T) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await action());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}

/**
 * A submit refused before any request (a field empty or malformed). Said in an alert too, not only
 * under the fields: a submit is never silent (issue 29 — the journey's sign-up typed into the
 * sign-in form still on screen, then submitted an empty register form that showed no alert).
 */
class InvalidFields extends Error {
  constructor() {
    super('invalid');
  }
}

function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useTranslation('auth');
  if (!error) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 2 }}>
      {t(error instanceof InvalidFields ? 'errors.validation' : authErrorKey(error))}
    </Alert>
  );
}

const emailOk = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

/** Sends the verification e-mail again (an unverified account trying to sign in). */
function ResendVerification({ email }: { email: string }) {
  const { t, i18n } = useTranslation('auth');
  const [state, setState] = useState<'idle' | 'sent' | 'failed'>('idle');
  const resend = () =>
    apiPost(
      'userApiUrlBase',
      'auth/resend-verification',
      { email, lng: i18n.language === 'en' ? 'en' : 'fr' },
      { anonymous: true },
    ).then(
      () => setState('sent'),
      () => setState('failed'),
    );
  if (state === 'sent')
    return (
      <Alert severity="success" role="status" sx={{ mb: 2 }}>
        {t('login.resent')}
      </Alert>
    );
  return (
    <Button variant="outlined" onClick={resend} sx={{ mb: 2 }} fullWidth>
      {state === 'failed' ? t('errors.unknown') : t('login.resend')}
    </Button>
  );
}

/** `/login` (named route login). After sign-in: the remembered route, or `/` (spec §2). */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const { busy, error, submit } = useSubmit(
    async () => {
      setTouched(true);
      if (!emailOk(email) || !password) throw new InvalidFields();
      await signIn(email.trim(), password);
    },
    // The guard moves a signed-in user off /login to the remembered route (or the profile form).
    () => undefined,
  );
  const notVerified = error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED';
  const { invited } = useInvitationOnTheWay(setEmail);
  return (
    <AuthCard title={t('login.title')}>
      {invited && <InvitationNote invitation={invited} />}
      <ErrorAlert error={error instanceof ApiError || error instanceof InvalidFields ? error : null} />
      {notVerified && <ResendVerification email={email.trim()} />}
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <TextField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            error={touched && !emailOk(email)}
            helperText={touched && !emailOk(email) ? t('validation.email') : ' '}
          />
          <TextField
            label={t('fields.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            error={touched && !password}
            helperText={touched && !password ? t('validation.required') : ' '}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {t('login.submit')}
          </Button>
          <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
            <Link component={RouterLink} to={paths.forgotPassword()}>
              {t('login.forgot')}
            </Link>
            <Link component={RouterLink} to={paths.register()}>
              {t('login.register')}
            </Link>
          </Stack>
        </Stack>
      </Box>
    </AuthCard>
  );
}

/** `/auth/register`: e-mail and password; then a message asking to verify the e-mail. */
export function RegisterPage() {
  const { t, i18n } = useTranslation('auth');
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const passwordOk = password.length >= PASSWORD_MIN;
  const { invited, next } = useInvitationOnTheWay(setEmail);
  const { busy, error, submit } = useSubmit(
    async () => {
      setTouched(true);
      if (!emailOk(email) || !passwordOk) throw new InvalidFields();
      return apiPost<{ mailLinksInLog?: true }>(
        'userApiUrlBase',
        'auth/sign-up',
        // `next`: the verification link leads back to the invitation (issue 43).
        {
          email: email.trim(),
          password,
          lng: i18n.language === 'en' ? 'en' : 'fr',
          ...(next ? { next } : {}),
        },
        { anonymous: true },
      );
    },
    (answer) => navigate(paths.authMessage('verify-email'), { state: devMailState(answer) }),
  );
  return (
    <AuthCard title={t('register.title')}>
      {invited && <InvitationNote invitation={invited} />}
      <ErrorAlert error={error instanceof ApiError || error instanceof InvalidFields ? error : null} />
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <TextField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            error={touched && !emailOk(email)}
            helperText={touched && !emailOk(email) ? t('validation.email') : ' '}
          />
          <TextField
            label={t('fields.password')}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            error={touched && !passwordOk}
            helperText={t('validation.passwordMin', { min: PASSWORD_MIN })}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {t('register.submit')}
          </Button>
          <Link component={RouterLink} to={paths.login()}>
            {t('register.haveAccount')}
          </Link>
        </Stack>
      </Box>
    </AuthCard>
  );
}

/** `/auth/forgot-password`: always answers the same (accounts cannot be discovered). */
export function ForgotPasswordPage() {
  const { t, i18n } = useTranslation('auth');
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const { busy, error, submit } = useSubmit(
    async () => {
      setTouched(true);
      if (!emailOk(email)) throw new Error('invalid');
      return apiPost<{ mailLinksInLog?: true } | undefined>(
        'userApiUrlBase',
        'auth/forgot-password',
        { email: email.trim(), lng: i18n.language === 'en' ? 'en' : 'fr' },
        { anonymous: true },
      );
    },
    (answer) => navigate(paths.forgotMailSent(), { state: devMailState(answer) }),
  );
  return (
    <AuthCard title={t('forgot.title')}>
      <ErrorAlert error={error instanceof ApiError ? error : null} />
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <Typography color="text.secondary">{t('forgot.text')}</Typography>
          <TextField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            error={touched && !emailOk(email)}
            helperText={touched && !emailOk(email) ? t('validation.email') : ' '}
          />
          <Button type="submit" variant="contained" disabled={busy}>
            {t('forgot.submit')}
          </Button>
          <Link component={RouterLink} to={paths.login()}>
            {t('backToLogin')}
          </Link>
        </Stack>
      </Box>
    </AuthCard>
  );
}

/** The navigation state telling the next page the server prints e-mail links (development). */
const devMailState = (answer: { mailLinksInLog?: true } | undefined) =>
  answer?.mailLinksInLog ? { mailLinksInLog: true } : null;

/**
 * A note for developers only (issue 43: end users read it): shown when the server answered that
 * it runs in development and prints e-mail links on its console (README "First account"); a
 * code is never readable over HTTP (issue 13).
 */
function DevMailHint() {
  const { t } = useTranslation('auth');
  const { state } = useLocation();
  if (!(state as { mailLinksInLog?: boolean } | null)?.mailLinksInLog) return null;
  return (
    <Alert severity="info" role="note" sx={{ mb: 2 }} data-testid="dev-mail-hint">
      {t('devMailHint')}
    </Alert>
  );
}

/** `/auth/forgot-mailsent`. */
export function ForgotMailSentPage() {
  const { t } = useTranslation('auth');
  return (
    <AuthCard title={t('mailSent.title')}>
      <Typography sx={{ mb: 2 }}>{t('mailSent.text')}</Typography>
      <DevMailHint />
      <Link component={RouterLink} to={paths.login()}>
        {t('backToLogin')}
      </Link>
    </AuthCard>
  );
}

function ResetForm({ code }: { code: string }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const ok = password.length >= PASSWORD_MIN;
  const { busy, error, submit } = useSubmit(
    async () => {
      setTouched(true);
      if (!ok) throw new Error('invalid');
      await apiPost('userApiUrlBase', 'auth/reset-password', { code, password }, { anonymous: true });
    },
    () => navigate(paths.authMessage('password-reset')),
  );
  return (
    <AuthCard title={t('reset.title')}>
      <ErrorAlert error={error instanceof ApiError ? error : null} />
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <TextField
            label={t('fields.newPassword')}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            error={touched && !ok}
            helperText={t('validation.passwordMin', { min: PASSWORD_MIN })}
          />
          <Button type="submit" variant="contained" disabled={busy}>
            {t('reset.submit')}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}

/** `/auth/reset-password/{code}`. */
export function ResetPasswordPage() {
  const { code = '' } = useParams();
  return <ResetForm code={code} />;
}

/** `/auth/action?mode=verifyEmail|resetPassword&oobCode=…`: the e-mail action handler. */
export function ActionPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const mode = params.get('mode');
  const code = params.get('oobCode') ?? '';
  // Issue 43: verified, an invitee goes straight back to the invitation (signing in on the way).
  const next = params.get('next');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (mode !== 'verifyEmail') return;
    apiPost('userApiUrlBase', 'auth/verify-email', { code }, { anonymous: true })
      .then(() =>
        navigate(
          (invitationToken(next) || entriesRoute(next)) && next ? next : paths.authMessage('email-verified'),
          {
            replace: true,
          },
        ),
      )
      .catch(setError);
  }, [mode, code, next, navigate]);
  if (mode === 'resetPassword') return <ResetForm code={code} />;
  if (mode !== 'verifyEmail')
    return (
      <AuthCard title={t('action.invalid')}>
        <Link component={RouterLink} to="/">
          {t('common:nav.home')}
        </Link>
      </AuthCard>
    );
  return (
    <AuthCard title={t('action.verifying')}>
      {error ? <ErrorAlert error={error} /> : <Typography role="status">{t('action.wait')}</Typography>}
    </AuthCard>
  );
}

/** `/auth/message/{label}`: a translated message page. */
export function MessagePage() {
  const { t } = useTranslation('auth');
  const { label = '' } = useParams();
  const known = ['verify-email', 'email-verified', 'password-reset'].includes(label);
  return (
    <AuthCard title={t(known ? `messages.${label}.title` : 'messages.unknown.title')}>
      <Typography sx={{ mb: 2 }}>{t(known ? `messages.${label}.text` : 'messages.unknown.text')}</Typography>
      {label === 'verify-email' && <DevMailHint />}
      <Button variant="contained" component={RouterLink} to={paths.login()}>
        {t('login.title')}
      </Button>
    </AuthCard>
  );
}

/** The basic profile form (the fields a race entry needs); makes `profileComplete` true. */
export function BasicProfileForm({ onDone }: { onDone(): void }) {
  const { t, i18n } = useTranslation('auth');
  const { ui } = useBranding();
  const { profile, updateProfile } = useAuth();
  // Spec §7: the entry labels come from the server's `inscriptions` namespace; bundled text until then.
  useServerTranslations('inscriptions', ui, i18n.language === 'en' ? 'en' : 'fr');
  const label = (key: string, fallback: string) => t(`inscriptions:${key}`, { defaultValue: t(fallback) });
  const [form, setForm] = useState({
    firstName: profile?.firstName ?? '',
    lastName: profile?.lastName ?? '',
    gender: profile?.gender ?? '',
    birthDate: profile?.birthDate ?? '',
    nationality: profile?.nationality ?? '',
    club: profile?.club ?? '',
  });
  const [touched, setTouched] = useState(false);
  const invalid = {
    firstName: !form.firstName.trim(),
    lastName: !form.lastName.trim(),
    gender: !form.gender,
    birthDate: !/^\d{4}-\d{2}-\d{2}$/.test(form.birthDate),
    nationality: !/^[A-Za-z]{3}$/.test(form.nationality),
  };
  const { busy, error, submit } = useSubmit(async () => {
    setTouched(true);
    if (Object.values(invalid).some(Boolean)) throw new Error('invalid');
    await updateProfile({ ...form, nationality: form.nationality.toUpperCase() } as ProfileUpdate);
  }, onDone);
  const serverErrors = error instanceof ApiError ? error.fieldErrors : {};
  const field = (name: keyof typeof form, extra: object = {}) => {
    // A field the server refused (400 VALIDATION_FAILED with field errors) shows the same message.
    const bad = (touched && (invalid as Record<string, boolean>)[name]) || !!serverErrors[name];
    return {
      name,
      label: label(name, `fields.${name}`),
      value: form[name],
      onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
      error: bad,
      helperText: bad ? t(`validation.${name}`, { defaultValue: t('validation.invalid') }) : ' ',
      ...extra,
    };
  };
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <ErrorAlert
        error={
          error instanceof ApiError
            ? error
            : error && !(error instanceof Error)
              ? new ApiError(400, 'PROFILE_REJECTED', '')
              : null
        }
      />
      <Stack spacing={1.5}>
        <TextField {...field('firstName')} autoComplete="given-name" required />
        <TextField {...field('lastName')} autoComplete="family-name" required />
        <TextField {...field('gender')} select required>
          {genders.map((g) => (
            <MenuItem key={g} value={g}>
              {label(`gender.${g}`, `genders.${g}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          {...field('birthDate')}
          type="date"
          required
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          {...field('nationality')}
          required
          placeholder="BEL"
          slotProps={{ htmlInput: { maxLength: 3 } }}
        />
        <TextField {...field('club')} />
        <Button type="submit" variant="contained" disabled={busy}>
          {t('profile.submit')}
        </Button>
      </Stack>
    </Box>
  );
}

/** `/auth/basic-profile` (requireAuth; named auth-basic-profile). */
export function BasicProfilePage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  return (
    <AuthCard title={t('profile.title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('profile.text')}
      </Typography>
      <BasicProfileForm onDone={() => navigate(takeIntendedRoute(), { replace: true })} />
    </AuthCard>
  );
}

/** `/authentication/basicprofile` (requireAuth): the same form, to change the profile later. */
export function ProfilePage() {
  const { t } = useTranslation('auth');
  const [saved, setSaved] = useState(false);
  return (
    <AuthCard title={t('profile.editTitle')}>
      {saved && (
        <Alert severity="success" sx={{ mb: 2 }} role="status">
          {t('profile.saved')}
        </Alert>
      )}
      <BasicProfileForm onDone={() => setSaved(true)} />
      <Link component={RouterLink} to={paths.home()} sx={{ display: 'inline-block', mt: 2 }}>
        {t('common:notFound.home')}
      </Link>
    </AuthCard>
  );
}
