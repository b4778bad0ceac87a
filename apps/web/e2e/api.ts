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

/** The development outbox (readable from loopback outside production). */
export async function outbox(server: RunningServer) {
  return (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as {
    to: string;
    subject: string;
    text: string;
  }[];
}

/**
 * Signs up, verifies through the outbox link and signs in; with `profile`, completes the basic
 * profile too (needed to use the app in the browser). Returns the ID token.
 */
export async function verifiedAccount(
  server: RunningServer,
  email: string,
  password: string,
  profile = false,
): Promise<string> {
  await post(server, '/api/auth/sign-up', { email, password, lng: 'en' });
  const code = /oobCode=([\w-]+)/.exec((await outbox(server)).find((m) => m.to === email)!.text)![1];
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
