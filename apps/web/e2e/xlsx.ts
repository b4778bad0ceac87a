import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';

/** Participants files for the console journeys. */
const FIRST = ['Élodie', 'Jean', 'Sofie', 'Luc', 'Ana', 'Marc', 'Inès', 'Noah', 'Zoé', 'Hugo'];
const LAST = [
  'Dupré',
  'Martin',
  'Peeters',
  'Janssens',
  'Silva',
  'Lefèvre',
  'Maes',
  'Dubois',
  'Claes',
  'Goossens',
];

/** 2,000 rows with French headers: every tenth without a bib, one duplicate person, one bad date. */
export async function workbook(): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Inscriptions');
  sheet.addRow(['Dossard', 'Prénom', 'Nom', 'Sexe', 'Date de naissance', 'Club', 'Nationalité', 'E-mail']);
  for (let k = 0; k < 2000; k++) {
    const first = FIRST[k % 10]!;
    const last = `${LAST[Math.floor(k / 10) % 10]}${k >= 100 ? `-${Math.floor(k / 100)}` : ''}`;
    const birth = new Date(Date.UTC(1960 + (k % 45), k % 12, 1 + (k % 28)));
    sheet.addRow([
      k % 10 === 9 ? null : 1000 + k,
      first,
      last,
      k % 2 ? 'Homme' : 'Femme',
      k === 1500 ? '31/02/1990' : birth,
      k % 3 ? 'AC Liège' : 'Namur Running',
      'BEL',
      `runner${k}@example.be`,
    ]);
  }
  // The same person as row 2 (line 3), under another bib.
  sheet.addRow([5000, 'Jean', 'Dupré', 'Homme', new Date(Date.UTC(1961, 1, 2)), '', 'BEL', '']);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-xlsx-')), 'inscriptions-2026.xlsx');
  await book.xlsx.writeFile(file);
  return file;
}
