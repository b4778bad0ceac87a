import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CertificateTemplate, CertificateTemplateInfo } from '@tempora/contracts';
import { apiDownload, apiGet, apiRequest, apiUrl } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const base = (eventId: string) => `exports/${enc(eventId)}/certificate`;
const key = (eventId: string) => ['exports', 'certificate', eventId];

/** The event's certificate template (the default one until saved). */
export function useCertificateTemplate(eventId: string) {
  return useQuery({
    queryKey: key(eventId),
    enabled: !!eventId,
    queryFn: ({ signal }) => apiGet<CertificateTemplateInfo>('apiUrlBase', base(eventId), { signal }),
  });
}

export function useSaveCertificateTemplate(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (template: CertificateTemplate) =>
      apiRequest<CertificateTemplateInfo>('apiUrlBase', base(eventId), { method: 'PUT', body: template }),
    onSuccess: (info) => client.setQueryData(key(eventId), info),
  });
}

/** Sets (a PNG or JPEG file) or removes (null) the background image. */
export function useCertificateBackground(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File | null) =>
      file
        ? apiRequest<CertificateTemplateInfo>('apiUrlBase', `${base(eventId)}/background`, {
            method: 'PUT',
            body: file,
            headers: { 'content-type': file.type },
          })
        : apiRequest<CertificateTemplateInfo>('apiUrlBase', `${base(eventId)}/background`, {
            method: 'DELETE',
          }),
    onSuccess: (info) => {
      client.setQueryData(key(eventId), info);
      void client.invalidateQueries({ queryKey: ['exports', 'background', eventId] });
    },
  });
}

/** The background image as an object URL (it needs the bearer header), or null. */
export function useBackgroundImage(eventId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['exports', 'background', eventId],
    enabled: !!eventId && enabled,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () =>
      URL.createObjectURL((await apiDownload('apiUrlBase', `${base(eventId)}/background`)).blob),
  });
}

/** The designer's preview: the saved template with the event's first finisher. */
export function previewCertificate(eventId: string, lng: 'en' | 'fr') {
  return apiDownload('apiUrlBase', `${base(eventId)}/preview?lng=${lng}`);
}

/** A finisher's certificate's path under the API (public by tracking key). */
export function certificatePath(trackingKey: string, lng: 'en' | 'fr'): string {
  return `certificates/${enc(trackingKey)}?lng=${lng}`;
}

/** A finisher's certificate's address (public by tracking key). */
export function certificateUrl(trackingKey: string, lng: 'en' | 'fr'): string {
  return apiUrl('apiUrlBase', certificatePath(trackingKey, lng));
}
