import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadLanguage } from '../lib/i18n.ts';

// jsdom has no canvas (it reports each use as not implemented): text is measured by an estimate.
HTMLCanvasElement.prototype.getContext = () => null;

// Components read translations synchronously: both languages are loaded before any test.
await Promise.all([loadLanguage('en', { all: true }), loadLanguage('fr', { all: true })]);

afterEach(() => cleanup());
