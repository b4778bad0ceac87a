import { expect, test } from './fixtures.ts';

test('forgotten password → mail → reset → sign in with the new password', async ({ page, request }) => {
  const email = `reset-${Date.now()}@example.org`;
  const first = 'first password 123';
  const second = 'second password 456';
  expect(
    (await request.post('/api/auth/sign-up', { data: { email, password: first, lng: 'en' } })).status(),
  ).toBe(201);
  const verify = (
    (await (await request.get('/api/dev/outbox')).json()) as { to: string; text: string }[]
  ).find((m) => m.to === email)!;
  const code = /oobCode=([\w-]+)/.exec(verify.text)![1];
  expect((await request.post('/api/auth/verify-email', { data: { code } })).ok()).toBe(true);

  await page.goto('/?lng=en#/login');
  await page.getByRole('link', { name: 'Forgotten password?' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forgotten password');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your e-mail');

  const mails = (await (await request.get('/api/dev/outbox')).json()) as { to: string; text: string }[];
  const link = mails
    .filter((m) => m.to === email)
    .map((m) => /#\/auth\/action\?mode=resetPassword&oobCode=[\w-]+/.exec(m.text)?.[0])
    .find(Boolean);
  expect(link).toBeTruthy();
  await page.goto(`/?lng=en${link}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
  await page.getByLabel('New password').fill(second);
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Password changed');

  await page.goto('/?lng=en#/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(first);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.');
  await page.getByLabel('Password').fill(second);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // An incomplete profile: the guard sends the new user to the basic profile.
  await expect(page).toHaveURL(/#\/auth\/basic-profile$/);
});
