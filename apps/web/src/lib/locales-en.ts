/** Every English namespace (`locales/en/{namespace}.json`), one chunk loaded when English is in use. */
export default import.meta.glob<Record<string, unknown>>('../locales/en/*.json', {
  eager: true,
  import: 'default',
});
