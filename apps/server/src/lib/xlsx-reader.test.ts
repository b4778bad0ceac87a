import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { bombWorkbook, manyRowsWorkbook } from '../../test/xlsx-bombs.ts';
import { AppError } from '../errors.ts';
import { checkZipExpansion, readXlsx, XLSX_LIMITS } from './xlsx-reader.ts';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('should have been refused'),
    (e: AppError) => {
      expect(e).toBeInstanceOf(AppError);
      return { status: e.status, code: e.code, message: e.message };
    },
  );

describe('the XLSX reader and its limits (issue 25: zip bombs)', () => {
  it('reads a workbook written by exceljs: sheets, header, trimmed text, dates', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Inscrits');
    sheet.addRow(['Dossard', 'Nom ', 'Né']);
    sheet.addRow([1, ' Dupré', new Date(Date.UTC(1985, 4, 12))]);
    const [read] = await readXlsx(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(read).toEqual({
      name: 'Inscrits',
      header: ['Dossard', 'Nom', 'Né'],
      rows: [{ line: 2, cells: ['1', 'Dupré', '1985-05-12'] }],
    });
  });

  it('reads the hand-made workbooks of the tests below when they are within the limits', async () => {
    const [small] = await readXlsx(await bombWorkbook(1));
    expect(small).toMatchObject({ name: 'Entries', header: ['Bib'], rows: [{ line: 2, cells: ['1'] }] });
    expect((await readXlsx(await manyRowsWorkbook(1_000)))[0]!.rows).toHaveLength(1_000);
  });

  it('refuses a zip bomb with 413 naming the limit, stopping at the limit', async () => {
    const bomb = await bombWorkbook(200);
    expect(bomb.length).toBeLessThan(1024 * 1024); // 200 MB inside less than 1 MB
    const started = performance.now();
    expect(await failure(readXlsx(bomb))).toEqual({
      status: 413,
      code: 'XLSX_TOO_LARGE',
      message: expect.stringContaining(`${XLSX_LIMITS.uncompressedBytes / 1024 / 1024} MB`),
    });
    const ms = performance.now() - started;
    // Only the first 64 MB are inflated (the whole bomb takes several times as long).
    console.info(`200 MB bomb (${bomb.length} bytes) refused in ${Math.round(ms)} ms`);
  });

  it('refuses it too when the local headers hide the sizes (a data descriptor after the data)', async () => {
    const bomb = await bombWorkbook(100, { hideSizes: true });
    expect((await failure(checkZipExpansion(bomb))).status).toBe(413);
    expect((await failure(readXlsx(bomb))).code).toBe('XLSX_TOO_LARGE');
  });

  it('refuses too many rows with 422 naming the limit; a caller may lower it', async () => {
    expect((await readXlsx(await manyRowsWorkbook(XLSX_LIMITS.rows)))[0]!.rows).toHaveLength(
      XLSX_LIMITS.rows,
    );
    expect(await failure(readXlsx(await manyRowsWorkbook(XLSX_LIMITS.rows + 1)))).toEqual({
      status: 422,
      code: 'TOO_MANY_ROWS',
      message: expect.stringContaining('100,000 rows'),
    });
    expect((await failure(readXlsx(await manyRowsWorkbook(50), { maxRows: 20 }))).message).toContain(
      '20 rows',
    );
  });
});
