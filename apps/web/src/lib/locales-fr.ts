/** Every French namespace (`locales/fr/{namespace}.json`), one chunk loaded when French is in use. */
export default import.meta.glob<Record<string, unknown>>('../locales/fr/*.json', {
  eager: true,
  import: 'default',
});
