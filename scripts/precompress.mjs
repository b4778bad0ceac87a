#!/usr/bin/env node
// Writes .br and .gz beside every compressible file of a build directory, so the server sends
// pre-compressed bytes (no compression work per request). Usage: node precompress.mjs <dir>
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2];
if (!dir) throw new Error('usage: precompress.mjs <dir>');
const compressible = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml|ico)$/;

async function* walk(d) {
  for (const entry of await fs.readdir(d, { withFileTypes: true })) {
    const p = path.join(d, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else yield p;
  }
}

let count = 0;
for await (const file of walk(dir)) {
  if (!compressible.test(file)) continue;
  const data = await fs.readFile(file);
  if (data.length < 512) continue;
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gz = zlib.gzipSync(data, { level: 9 });
  await fs.writeFile(`${file}.br`, br);
  await fs.writeFile(`${file}.gz`, gz);
  count++;
}
console.log(`precompressed ${count} files in ${dir}`);
