export * from './env-config.ts';
