import { type ApiBase, apiDownload } from './api-client.ts';

/** Saves a Blob under a name (a temporary object URL clicked as a download link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads a file with the caller's credentials and saves it: under `fileName` when given, else
 * under the name the server gives (`content-disposition`), else `fallback`. The one download of
 * the web client (exports, receipts, refunds, invoices, confirmation reports).
 */
export async function downloadFile(
  base: ApiBase,
  path: string,
  name: { fileName?: string; fallback?: string },
): Promise<void> {
  const { blob, fileName } = await apiDownload(base, path);
  saveBlob(blob, name.fileName ?? fileName ?? name.fallback ?? 'download');
}
