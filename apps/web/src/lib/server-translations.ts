import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { apiGet } from './api-client.ts';

/** Status of a translation context (spec §4; `succes` is the spec's spelling). */
export type TranslationStatus = 'created' | 'queued' | 'succes' | 'error';
/** A key → text map for one language (spec §3 "Translation labels"). */
export type Labels = Record<string, string>;

/** One set of server labels: UI variant × namespace × language. */
export interface TranslationContext {
  ui: string;
  ns: string;
  lng: string;
  status: TranslationStatus;
  loading: boolean;
  labels: Labels | null;
  /** Settles when the context is loaded or has failed (never rejects). */
  done: Promise<TranslationContext>;
}

export type LabelsFetcher = (ui: string, ns: string, lng: string) => Promise<Labels>;

/** Spec §7/§9: 50 ms delay before loading, a re-run after 25 ms when more are queued. */
export const BATCH_DELAY_MS = 50;
export const RERUN_DELAY_MS = 25;

/**
 * Batches server translation requests (spec §4, §7, §8). A request creates a context (`created`)
 * and queues it (`queued`); 50 ms later every queued context loads together; contexts queued
 * meanwhile load in a re-run 25 ms after that batch. Success: `succes` and the labels; failure:
 * `error`, the loading flag cleared, no message shown, and the cached entry dropped so a later
 * request tries again.
 */
export class TranslationLoader {
  private readonly cache = new Map<string, TranslationContext>();
  private readonly queue: TranslationContext[] = [];
  private readonly resolvers = new Map<TranslationContext, (c: TranslationContext) => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;

  constructor(
    private readonly fetcher: LabelsFetcher,
    private readonly onLoaded: (context: TranslationContext) => void = () => {},
  ) {}

  /** The cached context of `ui/ns/lng`, created and queued when absent. */
  request(ui: string, ns: string, lng: string): TranslationContext {
    const key = `${ui}/${ns}/${lng}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let resolve!: (c: TranslationContext) => void;
    const done = new Promise<TranslationContext>((r) => {
      resolve = r;
    });
    const context: TranslationContext = {
      ui,
      ns,
      lng,
      status: 'created',
      loading: false,
      labels: null,
      done,
    };
    this.resolvers.set(context, resolve);
    this.cache.set(key, context);
    context.status = 'queued';
    this.queue.push(context);
    if (!this.running) this.schedule(BATCH_DELAY_MS);
    return context;
  }

  /** The cached context, if any (tests, diagnostics). */
  peek(ui: string, ns: string, lng: string): TranslationContext | undefined {
    return this.cache.get(`${ui}/${ns}/${lng}`);
  }

  private schedule(delay: number) {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delay);
  }

  private async run() {
    this.running = true;
    const batch = this.queue.splice(0);
    await Promise.all(batch.map((context) => this.load(context)));
    this.running = false;
    if (this.queue.length) this.schedule(RERUN_DELAY_MS);
  }

  private async load(context: TranslationContext) {
    context.loading = true;
    try {
      context.labels = await this.fetcher(context.ui, context.ns, context.lng);
      context.status = 'succes';
      this.onLoaded(context);
    } catch {
      // Spec §8: no message; the entry is dropped so the next request retries.
      context.status = 'error';
      this.cache.delete(`${context.ui}/${context.ns}/${context.lng}`);
    } finally {
      context.loading = false;
      this.resolvers.get(context)?.(context);
      this.resolvers.delete(context);
    }
  }
}

/** Spec §7: `GET {eventsApiUrlBase}translation/i18n/{ui}/{namespace}/{lng}`. */
export const fetchLabels: LabelsFetcher = (ui, ns, lng) =>
  apiGet<Labels>(
    'eventsApiUrlBase',
    `translation/i18n/${encodeURIComponent(ui)}/${encodeURIComponent(ns)}/${encodeURIComponent(lng)}`,
  );

/** The app's loader: loaded labels become an i18next namespace (`inscriptions:firstName`). */
export const translationLoader = new TranslationLoader(fetchLabels, (context) => {
  i18next.addResourceBundle(context.lng, context.ns, context.labels ?? {}, true, true);
});

/**
 * Loads the server labels of `ns` for the current language and UI variant; returns the status.
 * Until they arrive (or when they fail) `t('ns:key', { defaultValue })` shows the bundled text.
 */
export function useServerTranslations(ns: string, ui: string, lng: string): TranslationStatus {
  const [status, setStatus] = useState<TranslationStatus>(
    () => translationLoader.peek(ui, ns, lng)?.status ?? 'created',
  );
  useEffect(() => {
    let live = true;
    const context = translationLoader.request(ui, ns, lng);
    setStatus(context.status);
    void context.done.then((c) => live && setStatus(c.status));
    return () => {
      live = false;
    };
  }, [ui, ns, lng]);
  return status;
}
