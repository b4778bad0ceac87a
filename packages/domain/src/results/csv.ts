/**
 * Parses CSV text (RFC 4180: quoted fields, `""` inside quotes, CRLF or LF) into rows of fields.
 * Returns each row with the line it starts on, so that an import can report the line of a bad
 * row. Never throws: an unterminated quote runs to the end of the text.
 */
export function parseCsv(text: string): { fields: string[]; line: number }[] {
  const rows: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let quoted = false;
  let k = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    fields.push(field);
    rows.push({ fields, line: rowLine });
    fields = [];
    field = '';
    rowLine = line;
  };
  for (; k < text.length; k++) {
    const ch = text[k]!;
    if (quoted) {
      if (ch === '"' && text[k + 1] === '"') {
        field += '"';
        k++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[k + 1] === '\n') k++;
      line++;
      endRow();
    } else field += ch;
  }
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}
