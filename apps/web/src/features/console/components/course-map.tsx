import 'leaflet/dist/leaflet.css';
import { Box } from '@mui/material';
import type { ConsoleRace } from '@tempora/contracts';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentEnvironment } from '../../../lib/api-client.ts';

/** MapTiler raster tiles with the environment's map key (the spectator map's source, product.md). */
const TILE_URL = 'https://api.maptiler.com/maps/streets-v2/256/{z}/{x}/{y}.png?key=';

const KIND_COLOURS = { start: '#2e7d32', split: '#1565c0', finish: '#c62828' } as const;

/**
 * The race's course drawn with Leaflet: the track, its timing points (the selected one larger),
 * and a click on the map places the selected point (the server snaps it to the track and computes
 * its distance along it). Without a map key the track is drawn on a plain background.
 */
export function CourseMap({
  race,
  selected,
  onPick,
}: {
  race: ConsoleRace;
  selected: string | null;
  onPick: (lat: number, lon: number) => void;
}) {
  const { t, i18n } = useTranslation('console');
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    if (!box.current) return;
    const m = L.map(box.current, { zoomControl: true, attributionControl: true });
    const key = (() => {
      try {
        return currentEnvironment().mapKey;
      } catch {
        return '';
      }
    })();
    if (key) {
      L.tileLayer(`${TILE_URL}${encodeURIComponent(key)}`, {
        maxZoom: 19,
        attribution: '© MapTiler © OpenStreetMap contributors',
      }).addTo(m);
    }
    m.on('click', (e: L.LeafletMouseEvent) => pick.current(e.latlng.lat, e.latlng.lng));
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
    };
  }, []);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    group.clearLayers();
    const line = (race.course?.coordinates ?? []).map(([lon, lat]) => L.latLng(lat, lon));
    if (line.length) L.polyline(line, { color: '#39aade', weight: 4 }).addTo(group);
    const lng = i18n.language === 'en' ? 'en' : 'fr';
    for (const p of race.points) {
      if (p.lat === null || p.lon === null) continue;
      L.circleMarker([p.lat, p.lon], {
        radius: p.key === selected ? 10 : 7,
        color: '#fff',
        weight: 2,
        fillColor: KIND_COLOURS[p.kind],
        fillOpacity: 1,
      })
        .bindTooltip(
          `${p.name[lng]} · ${(p.distanceM / 1000).toLocaleString(lng, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} km`,
          {
            permanent: p.key === selected,
          },
        )
        .addTo(group);
    }
    if (line.length) m.fitBounds(L.latLngBounds(line), { padding: [24, 24] });
    else m.setView([50.85, 4.35], 11);
  }, [race, selected, i18n.language]);

  return (
    <Box
      ref={box}
      role="application"
      aria-label={t('course.mapLabel')}
      sx={{
        height: { xs: 320, md: 440 },
        borderRadius: 1,
        border: 1,
        borderColor: 'divider',
        bgcolor: '#eef2f5',
        cursor: selected ? 'crosshair' : 'grab',
        // Leaflet's panes and controls (attribution: z-index 1000) stay inside the map, under
        // the race page's sticky section menu (issue 43: drawn over it on a phone).
        isolation: 'isolate',
      }}
      data-testid="course-map"
    />
  );
}
