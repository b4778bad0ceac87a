export * from './abilities.ts';
export * from './content.ts';
export * from './env-config.ts';
export * from './environments.ts';
export * from './identity.ts';
export * from './participants.ts';
export * from './permissions.ts';
export * from './results.ts';
