import { type ComponentProps, lazy, Suspense } from 'react';

/**
 * The organiser's in-place editors, loaded when an organiser opens one: spectators never download
 * their forms, dialogs and date fields (issue 19: MUI used only by the organiser side).
 */
const EventEditDialogLazy = lazy(() =>
  import('./event-edit-dialog.tsx').then((m) => ({ default: m.EventEditDialog })),
);
const CmsPageEditorLazy = lazy(() =>
  import('./cms-page-editor.tsx').then((m) => ({ default: m.CmsPageEditor })),
);
const RecordEditorLazy = lazy(() => import('./record-editor.tsx').then((m) => ({ default: m.RecordEditor })));

/** The event editor dialog (event-edit-dialog.tsx), loaded on demand. */
export function EventEditDialog(props: ComponentProps<typeof EventEditDialogLazy>) {
  return (
    <Suspense fallback={null}>
      <EventEditDialogLazy {...props} />
    </Suspense>
  );
}

/** The CMS page editor (cms-page-editor.tsx), loaded on demand. */
export function CmsPageEditor(props: ComponentProps<typeof CmsPageEditorLazy>) {
  return (
    <Suspense fallback={null}>
      <CmsPageEditorLazy {...props} />
    </Suspense>
  );
}

/** The record editor of contacts and streams (record-editor.tsx), loaded on demand. */
export function RecordEditor(props: ComponentProps<typeof RecordEditorLazy>) {
  return (
    <Suspense fallback={null}>
      <RecordEditorLazy {...props} />
    </Suspense>
  );
}
