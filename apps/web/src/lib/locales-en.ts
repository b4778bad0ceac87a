/**
 * The English namespaces of the public pages (`locales/en/{namespace}.json`), one chunk loaded
 * before the first render when English is in use; the organiser namespaces load on demand
 * (`i18n.ts`). Keep the list in step with `PUBLIC_NAMESPACES` there.
 */
export default import.meta.glob<Record<string, unknown>>(
  '../locales/en/{common,content,live,results,views}.json',
  { eager: true, import: 'default' },
);
