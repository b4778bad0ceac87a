import { cleanup } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach } from 'vitest';
import { initialLanguage, loadLanguage } from '../lib/i18n.ts';

// Run before each file. The files of a worker share one module graph and one jsdom
// (vitest.config.ts): each starts as on a fresh page — storage empty, URL at its root, the
// language an empty page starts in.
window.localStorage.clear();
window.sessionStorage.clear();
window.history.replaceState(null, '', '/');
if (i18next.isInitialized && i18next.language !== initialLanguage())
  await i18next.changeLanguage(initialLanguage());

// jsdom has no canvas (it reports each use as not implemented): text is measured by an estimate.
HTMLCanvasElement.prototype.getContext = () => null;

// Components read translations synchronously: both languages are loaded before any test.
await Promise.all([loadLanguage('en', { all: true }), loadLanguage('fr', { all: true })]);

afterEach(() => cleanup());
