import { mailLink } from './api.ts';
import { expect, test } from './fixtures.ts';

test('forgotten password → mail → reset → sign in with the new password', async ({
  page,
  request,
  server,
}) => {
  const email = `reset-${Date.now()}@example.org`;
  const first = 'first password 123';
  const second = 'second password 456';
  expect(
    (await request.post('/api/auth/sign-up', { data: { email, password: first, lng: 'en' } })).status(),
  ).toBe(201);
  const code = /oobCode=([\w-]+)/.exec(await mailLink(server, email, 'verifyEmail'))![1];
  expect((await request.post('/api/auth/verify-email', { data: { code } })).ok()).toBe(true);

  await page.goto('/?lng=en#/login');
  await page.getByRole('link', { name: 'Forgotten password?' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forgotten password');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your e-mail');

  const link = await mailLink(server, email, 'resetPassword');
  expect(link).toMatch(/^#\/auth\/action\?mode=resetPassword&oobCode=[\w-]+$/);
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
  // Signed in with the new password; no runner profile is asked before a race is entered (issue 29).
  await expect(page).toHaveURL(/#\/$/);
});
