/**
 * The body of a report answer, built without holding the event loop (issue 27): a whole Boston
 * table is 7 MB of JSON, which `JSON.stringify` and brotli took ~0.5 s to make in one go, with
 * `/api/health` waiting behind. The rows are serialised a slice at a time, the event loop let in
 * between, and compressed on libuv's thread pool.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Rows serialised between two pauses (2,000 Boston rows: ~560 KB, a few ms). */
const ROWS_PER_SLICE = 2_000;

/**
 * A report body, encoded at most once per encoding (on the first reader that asks for it) and
 * shared by every reader of that version.
 */
export interface Encoded {
  json: Buffer;
  compressed(encoding: 'br' | 'gzip'): Promise<Buffer | null>;
}

/**
 * Brotli at quality 5 makes a table's JSON about a fifth smaller than gzip -6 at a similar speed
 * (issue 19: brotli as well as gzip for reports); higher qualities cost seconds on a full 7 MB
 * Boston table. Bodies under 2 KB go plain.
 */
function encoded(bytes: Buffer): Encoded {
  const done: Partial<Record<'br' | 'gzip', Promise<Buffer>>> = {};
  return {
    json: bytes,
    async compressed(encoding) {
      if (bytes.length <= 2048) return null;
      done[encoding] ??=
        encoding === 'br'
          ? brotli(bytes, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            })
          : gzip(bytes, { level: 6 });
      return done[encoding];
    },
  };
}

/**
 * `{...head, rows}` as JSON, the rows serialised `ROWS_PER_SLICE` at a time with the event loop
 * let in between (the same text `JSON.stringify` gives, but for the order of the keys).
 */
export async function encodeTable(
  head: Record<string, unknown>,
  rows: readonly unknown[][],
): Promise<Encoded> {
  const open = JSON.stringify(head);
  const parts = [open.length > 2 ? `${open.slice(0, -1)},"rows":[` : '{"rows":['];
  for (let k = 0; k < rows.length; k += ROWS_PER_SLICE) {
    if (k > 0) {
      parts.push(',');
      await new Promise((resolve) => setImmediate(resolve));
    }
    parts.push(JSON.stringify(rows.slice(k, k + ROWS_PER_SLICE)).slice(1, -1));
  }
  parts.push(']}');
  return encoded(Buffer.from(parts.join('')));
}

/** `{...head, rows}` as JSON from the rows' arrays already as JSON texts (concatenated, not parsed). */
export function encodeTableTexts(head: Record<string, unknown>, texts: readonly string[]): Encoded {
  const open = JSON.stringify(head);
  const rows = texts.map((t) => t.slice(1, -1)).filter((t) => t.length);
  return encoded(
    Buffer.from(`${open.length > 2 ? `${open.slice(0, -1)},` : '{'}"rows":[${rows.join(',')}]}`),
  );
}

/** The encoding to send: brotli when accepted, else gzip, else none (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string): 'br' | 'gzip' | null {
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0*)?\s*$/.test(part))
      .map((part) => part.split(';')[0]!.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}
