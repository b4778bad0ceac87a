/**
 * The French namespaces of the public pages (`locales/fr/{namespace}.json`), one chunk loaded
 * before the first render when French is in use; the organiser namespaces load on demand
 * (`i18n.ts`). Keep the list in step with `PUBLIC_NAMESPACES` there.
 */
export default import.meta.glob<Record<string, unknown>>(
  '../locales/fr/{common,content,live,results,views}.json',
  { eager: true, import: 'default' },
);
