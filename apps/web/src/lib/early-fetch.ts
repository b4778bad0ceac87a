/**
 * What the boot script (`apps/web/build/boot-script.ts`, `/boot.js`) asked for before the entry
 * ran (issue 19: the start-up chain): the environment configuration, and the first API calls of
 * the page the hash names. Each answer is taken once; later calls go to the network.
 */
interface Boot {
  env?: Promise<unknown>;
  early: Record<string, Promise<Response> | undefined>;
}

const boot = (): Boot | undefined =>
  typeof window === 'undefined' ? undefined : (window as unknown as { __temporaBoot?: Boot }).__temporaBoot;

/** The environment configurations the boot script fetched (parsed), if it did; taken once. */
export function takeEarlyEnvironments(): Promise<unknown> | undefined {
  const state = boot();
  const env = state?.env;
  if (state) state.env = undefined;
  return env;
}

/** The answer to `GET url` the boot script asked for, if it did; taken once. */
export function takeEarlyResponse(url: string): Promise<Response> | undefined {
  const state = boot();
  const response = state?.early[url];
  if (response) delete state.early[url];
  return response;
}
