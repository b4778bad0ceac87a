import zlib from 'node:zlib';

/**
 * Hand-made workbooks for the XLSX limits (issue 25): a zip bomb (a few hundred KB expanding to
 * hundreds of MB) and a workbook of too many rows, written byte by byte as a ZIP so that their
 * headers can also hide the sizes (a data descriptor, as streaming writers do).
 */

interface Entry {
  name: string;
  /** Raw-deflated content and its true size and CRC. */
  deflated: Buffer;
  size: number;
  crc: number;
}

/** Deflates parts given as a generator of chunks (never all in memory). */
async function deflate(chunks: Iterable<Buffer>): Promise<Omit<Entry, 'name'>> {
  const stream = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  stream.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  let size = 0;
  let crc = 0;
  for (const chunk of chunks) {
    size += chunk.length;
    crc = zlib.crc32(chunk, crc);
    if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r));
  }
  stream.end();
  await done;
  return { deflated: Buffer.concat(out), size, crc };
}

/** A ZIP of the entries; `hideSizes`: zero sizes in the local headers, a data descriptor after each. */
function zip(entries: Entry[], hideSizes = false): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(hideSizes ? 0x08 : 0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(hideSizes ? 0 : e.crc, 14);
    local.writeUInt32LE(hideSizes ? 0 : e.deflated.length, 18);
    local.writeUInt32LE(hideSizes ? 0 : e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const descriptor = Buffer.alloc(hideSizes ? 16 : 0);
    if (hideSizes) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(e.crc, 4);
      descriptor.writeUInt32LE(e.deflated.length, 8);
      descriptor.writeUInt32LE(e.size >>> 0, 12);
    }
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(hideSizes ? 0x08 : 0, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(e.crc, 16);
    dir.writeUInt32LE(e.deflated.length, 20);
    dir.writeUInt32LE(e.size >>> 0, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    parts.push(local, name, e.deflated, descriptor);
    offset += local.length + name.length + e.deflated.length + descriptor.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A one-sheet workbook whose sheet XML is the chunks (workbook and rels first, as Excel writes). */
async function workbook(sheet: () => Iterable<Buffer>, hideSizes: boolean): Promise<Buffer> {
  const text = (s: string) => () => [Buffer.from(s)];
  const parts: [string, () => Iterable<Buffer>][] = [
    [
      '[Content_Types].xml',
      text(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
      ),
    ],
    [
      'xl/workbook.xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Entries" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    ],
    [
      'xl/sharedStrings.xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t>Bib</t></si></sst>`,
      ),
    ],
    ['xl/worksheets/sheet1.xml', sheet],
  ];
  const entries: Entry[] = [];
  for (const [name, chunks] of parts) entries.push({ name, ...(await deflate(chunks())) });
  return zip(entries, hideSizes);
}

/**
 * A zip bomb: one sheet of two rows, padded inside by `megabytes` MB of spaces in a comment (a
 * valid sheet that deflates about a thousand to one).
 */
export function bombWorkbook(megabytes: number, options: { hideSizes?: boolean } = {}): Promise<Buffer> {
  return workbook(function* () {
    yield Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><!--`);
    const mb = Buffer.alloc(1024 * 1024, 0x20);
    for (let k = 0; k < megabytes; k++) yield mb;
    yield Buffer.from(
      '--><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>1</v></c></row></sheetData></worksheet>',
    );
  }, options.hideSizes ?? false);
}

/** A workbook of a header row and `rows` rows of one number each (small: ~40 bytes a row). */
export function manyRowsWorkbook(rows: number): Promise<Buffer> {
  return workbook(function* () {
    yield Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row>`,
    );
    let chunk = '';
    for (let r = 2; r <= rows + 1; r++) {
      chunk += `<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`;
      if (chunk.length > 64 * 1024) {
        yield Buffer.from(chunk);
        chunk = '';
      }
    }
    yield Buffer.from(`${chunk}</sheetData></worksheet>`);
  }, false);
}
