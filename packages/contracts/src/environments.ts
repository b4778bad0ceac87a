// No zod here: the web client's first chunk imports this file (`@tempora/contracts/environments`).

/** The environments of spec §9, chosen by the URL parameter `env` (default `prod`). */
export const environmentNames = ['dev', 'prod', 'cis'] as const;
export type EnvironmentName = (typeof environmentNames)[number];
export const defaultEnvironment: EnvironmentName = 'prod';

/** Picks the environment named by the URL parameter `env`; unknown or absent → `prod` (spec §9). */
export function pickEnvironmentName(value: string | null | undefined): EnvironmentName {
  return environmentNames.includes(value as EnvironmentName)
    ? (value as EnvironmentName)
    : defaultEnvironment;
}
