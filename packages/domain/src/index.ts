export * from './time-format.ts';
