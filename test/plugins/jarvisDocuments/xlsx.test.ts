// jarvis-documents on XLSX: create, edit, validate, render (text and pixels), and a cell edit that keeps
// the formulas, styles, number formats and column widths of everything it does not touch.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, countColour, DocumentsServer, readPng, renderedPath } from '../../helpers/documentsServer';

let server: DocumentsServer;
beforeAll(async () => {
  server = await DocumentsServer.start();
});
afterAll(async () => {
  await server.close();
});

async function load(name: string): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(server.path(name)) as unknown as ArrayBuffer);
  return book;
}

// One story on the same files (create, render, edit, break a copy): each test starts from what the one
// before left, so the order is kept even under --sequence.shuffle (the files themselves still shuffle).
describe('jarvis-documents XLSX', { timeout: 120_000, shuffle: false }, () => {
  it('creates a workbook with formulas, styles and number formats that validates', async () => {
    const answer = await server.ok('create_xlsx', {
      path: 'budget.xlsx',
      sheets: [
        {
          name: 'Costs',
          bold_header: true,
          column_widths: [18, 12, 12],
          rows: [
            ['Item', 'Amount', 'Share'],
            [
              'Rent',
              { value: 1200, number_format: '#,##0.00' },
              { formula: 'B2/B5', result: 0.6, number_format: '0%' },
            ],
            ['Power', { value: 300, number_format: '#,##0.00' }, '=B3/B5'],
            ['Food', { value: 500, number_format: '#,##0.00', fill: '#FFF2CC' }, '=B4/B5'],
            [
              { value: 'Total', bold: true },
              { formula: 'SUM(B2:B4)', result: 2000, bold: true, fill: '#C6EFCE' },
              null,
            ],
          ],
        },
        { name: 'Notes', rows: [['See Costs!B5'], ['=Costs!B5*2']] },
      ],
    });
    expect(answer).toContain('VALID XLSX');
    expect(answer).toContain('2 sheet(s): "Costs" 5 row(s), "Notes" 2 row(s)');
    expect(answer).toMatch(/5 formula\(s\) \(3 without a cached result/);
  });

  it('renders a sheet: values, the cached formula result, fills and number formats', async () => {
    if (!chromiumAvailable()) return;
    const answer = await server.ok('render_document', { path: 'budget.xlsx', page: 1 });
    expect(answer).toContain('sheet 1 of 2');
    for (const text of ['Rent', '1,200.00', '60%', '2000', 'Total', '=B3/B5']) expect(answer).toContain(text);
    const png = await readPng(renderedPath(answer));
    expect(countColour(png, [0xc6, 0xef, 0xce], undefined, 3)).toBeGreaterThan(800); // the total's green fill
    expect(countColour(png, [0xff, 0xf2, 0xcc], undefined, 3)).toBeGreaterThan(800); // the food row's fill
    const notes = await server.ok('render_document', { path: 'budget.xlsx', page: 2 });
    expect(notes).toContain('=Costs!B5*2');
  });

  it('a cell edit keeps formulas, styles, number formats and widths of untouched cells', async () => {
    const answer = await server.ok('edit_xlsx', {
      path: 'budget.xlsx',
      operations: [
        { op: 'set_cells', sheet: 'Costs', cells: { B3: 350, D1: { value: 'Checked', fill: '#FFFF00' } } },
        { op: 'append_rows', sheet: 'Notes', rows: [['added']] },
        { op: 'add_sheet', name: 'Summary', rows: [['Total', '=Costs!B5']] },
      ],
    });
    expect(answer).toContain('VALID XLSX');
    const book = await load('budget.xlsx');
    const costs = book.getWorksheet('Costs')!;
    expect(costs.getCell('B3').value).toBe(350);
    expect(costs.getCell('B5').formula).toBe('SUM(B2:B4)');
    expect(costs.getCell('C3').formula).toBe('B3/B5');
    expect(costs.getCell('C2').formula).toBe('B2/B5');
    expect(costs.getCell('C2').numFmt).toBe('0%');
    expect(costs.getCell('B2').numFmt).toBe('#,##0.00');
    expect(costs.getCell('B4').fill).toMatchObject({ pattern: 'solid', fgColor: { argb: 'FFFFF2CC' } });
    expect(costs.getCell('B5').font?.bold).toBe(true);
    expect(costs.getCell('A1').font?.bold).toBe(true);
    expect(costs.getColumn(1).width).toBe(18);
    expect(costs.getCell('D1').fill).toMatchObject({ fgColor: { argb: 'FFFFFF00' } });
    expect(book.getWorksheet('Notes')!.getCell('A2').formula).toBe('Costs!B5*2');
    expect(book.getWorksheet('Notes')!.getCell('A3').value).toBe('added');
    expect(book.getWorksheet('Summary')!.getCell('B1').formula).toBe('Costs!B5');
    // Values changed, so no stale cached result stays behind; the file asks for a full recalculation.
    expect(costs.getCell('B5').result).toBeUndefined();
    expect(answer).toContain('Cached formula results were cleared');
    const workbookXml = await (
      await JSZip.loadAsync(readFileSync(server.path('budget.xlsx')))
    )
      .file('xl/workbook.xml')!
      .async('string');
    expect(workbookXml).toMatch(/fullCalcOnLoad="1"/);
  });

  it('sheet operations and their errors', async () => {
    await server.ok('edit_xlsx', {
      path: 'budget.xlsx',
      operations: [
        { op: 'rename_sheet', sheet: 'Summary', name: 'Overview' },
        { op: 'set_column_width', sheet: 2, column: 'a', width: 30 },
      ],
    });
    const book = await load('budget.xlsx');
    expect(book.worksheets.map((s) => s.name)).toEqual(['Costs', 'Notes', 'Overview']);
    expect(book.getWorksheet('Notes')!.getColumn(1).width).toBe(30);
    const missing = await server.call('edit_xlsx', {
      path: 'budget.xlsx',
      operations: [{ op: 'set_cells', sheet: 'Nope', cells: { A1: 1 } }],
    });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('No sheet named "Nope"; the sheets are: "Costs", "Notes", "Overview".');
    const badRef = await server.call('edit_xlsx', {
      path: 'budget.xlsx',
      operations: [{ op: 'set_cells', sheet: 1, cells: { '1A': 1 } }],
    });
    expect(badRef.isError).toBe(true);
    expect(badRef.text).toContain('Invalid key in record at operations[0].cells.1A');
  });

  it('refuses to edit a workbook with parts the edit would drop, unless told', async () => {
    const zip = await JSZip.loadAsync(readFileSync(server.path('budget.xlsx')));
    zip.file(
      'xl/charts/chart1.xml',
      '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"/>',
    );
    writeFileSync(server.path('chart.xlsx'), await zip.generateAsync({ type: 'nodebuffer' }));
    const refused = await server.call('edit_xlsx', {
      path: 'chart.xlsx',
      operations: [{ op: 'set_cells', sheet: 1, cells: { A1: 'x' } }],
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('contains charts, which edit_xlsx cannot keep. Pass drop_unsupported: true');
  });

  it('the validator reports a sheet whose XML is broken', async () => {
    const zip = await JSZip.loadAsync(readFileSync(server.path('budget.xlsx')));
    zip.file(
      'xl/worksheets/sheet1.xml',
      (await zip.file('xl/worksheets/sheet1.xml')!.async('string')).replace('<sheetData>', '<sheetData><row>'),
    );
    writeFileSync(server.path('broken.xlsx'), await zip.generateAsync({ type: 'nodebuffer' }));
    const report = await server.ok('validate_document', { path: 'broken.xlsx' });
    expect(report).toMatch(/^INVALID XLSX/);
    expect(report).toContain('xl/worksheets/sheet1.xml is not well-formed XML');
  });
});
