export * from './abilities.ts';
export * from './env-config.ts';
export * from './identity.ts';
