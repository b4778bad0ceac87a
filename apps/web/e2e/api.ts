import type { RunningServer } from './server.ts';

/** POSTs JSON to the server (with a bearer token when given); throws on a non-2xx answer. */
export async function post<T>(
  server: RunningServer,
  path: string,
  body: unknown,
  token?: string,
): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** The outbox, read as platform staff (`token` of a PLATFORM_STAFF_EMAILS account); codes are masked. */
export async function outbox(server: RunningServer, token: string) {
  const res = await fetch(`${server.url}/api/dev/outbox`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`dev/outbox: ${res.status} ${await res.text()}`);
  return (await res.json()) as { to: string; subject: string; text: string }[];
}

/**
 * The newest e-mail link of `mode` sent to `email`, as the server prints it on its console in
 * development (the only place a code is readable: issue 13). Returns the hash route of the link,
 * `#/auth/action?mode=…&oobCode=…`; waits up to 10 s for the log line.
 */
export async function mailLink(
  server: RunningServer,
  email: string,
  mode: 'verifyEmail' | 'resetPassword',
): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const links = server.logs
      .join('')
      .split('\n')
      .filter((line) => line.includes('"link"'))
      .map((line) => {
        try {
          return JSON.parse(line) as { to?: string; link?: string };
        } catch {
          return {};
        }
      })
      .filter((entry) => entry.to === email.toLowerCase() && entry.link?.includes(`mode=${mode}`));
    const link = links.at(-1)?.link;
    if (link) return link.slice(link.indexOf('#'));
    if (Date.now() > deadline) throw new Error(`no ${mode} link for ${email} in the server log`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Signs up, verifies through the link the server printed and signs in; with `profile`, completes the basic
 * profile too (needed to use the app in the browser). Returns the ID token.
 */
export async function verifiedAccount(
  server: RunningServer,
  email: string,
  password: string,
  profile = false,
): Promise<string> {
  await post(server, '/api/auth/sign-up', { email, password, lng: 'en' });
  const code = /oobCode=([\w-]+)/.exec(await mailLink(server, email, 'verifyEmail'))![1];
  await post(server, '/api/auth/verify-email', { code });
  const { idToken } = await post<{ idToken: string }>(server, '/api/auth/sign-in', { email, password });
  if (profile)
    await post(
      server,
      '/api/user/profile',
      {
        firstName: 'Sam',
        lastName: 'Staff',
        gender: 'F',
        birthDate: '1985-03-02',
        nationality: 'BEL',
        club: '',
      },
      idToken,
    );
  return idToken;
}

/** A device key of a context's timing point, created by an organiser. */
export async function deviceKey(
  server: RunningServer,
  token: string,
  db: string,
  name: string,
  pointKey: string,
) {
  return (
    await post<{ key: string }>(server, `/api/results/contexts/${db}/devices`, { name, pointKey }, token)
  ).key;
}

/** Posts reads with a device key; returns the HTTP status. */
export async function ingest(server: RunningServer, key: string, passings: unknown[]): Promise<number> {
  const res = await fetch(`${server.url}/api/ingest/passings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-key': key },
    body: JSON.stringify({ passings }),
  });
  return res.status;
}
