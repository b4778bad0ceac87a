import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadLanguage } from '../lib/i18n.ts';

// Components read translations synchronously: both languages are loaded before any test.
await Promise.all([loadLanguage('en', { all: true }), loadLanguage('fr', { all: true })]);

afterEach(() => cleanup());
