// create_xlsx and edit_xlsx with exceljs. An edit reads the whole workbook and writes it back: cells the
// operations do not name keep their values, formulas, styles and number formats, sheets their column
// widths, merges and frozen panes.
import type { Cell, Workbook, Worksheet } from 'exceljs';
import { z } from 'zod';
import { hexOf } from '../blocks';
import { OoxmlPackage } from './ooxmlPackage';
import {
  applyOperations,
  checkCreateTarget,
  editTargets,
  expectFormat,
  readDocument,
  resolveDocumentPath,
  writeDocument,
} from '../documentFiles';

const styledCell = z.object({
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  formula: z.string().optional().describe('without the leading "="'),
  result: z
    .union([z.string(), z.number(), z.boolean()])
    .optional()
    .describe('cached result of the formula, shown until the file is recalculated'),
  bold: z.boolean().optional(),
  italic: z.boolean().optional(),
  color: z.string().optional().describe('text colour "#RRGGBB"'),
  fill: z.string().optional().describe('background "#RRGGBB"'),
  number_format: z.string().optional().describe('e.g. "0.00", "#,##0", "0%", "yyyy-mm-dd"'),
  align: z.enum(['left', 'center', 'right']).optional(),
});
export const cellSchema = z
  .union([z.string(), z.number(), z.boolean(), z.null(), styledCell])
  .describe('A value; a string starting with "=" is a formula; or an object with value/formula and style.');
type CellInput = z.infer<typeof cellSchema>;

const rowsSchema = z.array(z.array(cellSchema)).describe('Rows from A1 down, cells left to right.');
const sheetSchema = z.object({
  name: z.string().min(1).max(31),
  rows: rowsSchema.default([]),
  column_widths: z.array(z.number().positive()).optional().describe('in characters, from column A'),
  bold_header: z.boolean().optional().describe('make the first row bold and freeze it'),
});

export const createXlsxShape = {
  path: z.string().describe('Where to write the .xlsx.'),
  sheets: z.array(sheetSchema).min(1),
  overwrite: z.boolean().optional(),
};

const sheetRef = z.union([z.string(), z.number().int().min(1)]).describe('sheet name or 1-based position');
export const xlsxOperationSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('set_cells'),
    sheet: sheetRef,
    cells: z.record(z.string().regex(/^[A-Za-z]{1,3}[1-9][0-9]*$/, 'an A1 reference'), cellSchema),
  }),
  z.object({ op: z.literal('append_rows'), sheet: sheetRef, rows: rowsSchema }),
  z.object({
    op: z.literal('insert_rows'),
    sheet: sheetRef,
    at: z.number().int().min(1).describe('1-based row the first new row takes'),
    rows: rowsSchema,
  }),
  z.object({
    op: z.literal('delete_rows'),
    sheet: sheetRef,
    from: z.number().int().min(1),
    count: z.number().int().min(1).default(1),
  }),
  z.object({ op: z.literal('add_sheet'), name: z.string().min(1).max(31), rows: rowsSchema.default([]) }),
  z.object({ op: z.literal('rename_sheet'), sheet: sheetRef, name: z.string().min(1).max(31) }),
  z.object({ op: z.literal('delete_sheet'), sheet: sheetRef }),
  z.object({
    op: z.literal('set_column_width'),
    sheet: sheetRef,
    column: z.string().regex(/^[A-Za-z]{1,3}$/),
    width: z.number().positive(),
  }),
]);

export const editXlsxShape = {
  path: z.string().describe('The .xlsx to edit.'),
  operations: z.array(xlsxOperationSchema).min(1),
  output: z.string().optional().describe('Write the result here instead of replacing the file.'),
  drop_unsupported: z
    .boolean()
    .optional()
    .describe('Go ahead even though the workbook has charts, pivot tables or macros, which the edit cannot keep.'),
};

type CreateArgs = z.infer<z.ZodObject<typeof createXlsxShape>>;
type EditArgs = z.infer<z.ZodObject<typeof editXlsxShape>>;

async function newWorkbook(): Promise<Workbook> {
  const { default: ExcelJS } = await import('exceljs');
  return new ExcelJS.Workbook();
}

function argb(color: string): string {
  return `FF${hexOf(color)}`;
}

/** Writes one input into a cell; style fields change only what they name. */
export function setCell(cell: Cell, input: CellInput): void {
  if (input === null || typeof input !== 'object') {
    cell.value =
      typeof input === 'string' && input.startsWith('=') && input.length > 1 ? { formula: input.slice(1) } : input;
    return;
  }
  if (input.formula !== undefined)
    cell.value = {
      formula: input.formula.replace(/^=/, ''),
      ...(input.result !== undefined ? { result: input.result } : {}),
    } as Cell['value'];
  else if (input.value !== undefined) cell.value = input.value;
  if (input.bold !== undefined || input.italic !== undefined || input.color !== undefined) {
    cell.font = {
      ...cell.font,
      ...(input.bold !== undefined ? { bold: input.bold } : {}),
      ...(input.italic !== undefined ? { italic: input.italic } : {}),
      ...(input.color ? { color: { argb: argb(input.color) } } : {}),
    };
  }
  if (input.fill) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: argb(input.fill) } };
  if (input.number_format) cell.numFmt = input.number_format;
  if (input.align) cell.alignment = { ...cell.alignment, horizontal: input.align };
}

function writeRows(sheet: Worksheet, rows: CellInput[][], firstRow: number): void {
  rows.forEach((row, r) => row.forEach((input, c) => setCell(sheet.getCell(firstRow + r, c + 1), input)));
}

const UNKEPT_PARTS: [RegExp, string][] = [
  [/^xl\/charts\//, 'charts'],
  [/^xl\/pivotTables\//, 'pivot tables'],
  [/^xl\/vbaProject\.bin$/, 'macros'],
  [/^xl\/slicers\//, 'slicers'],
];

/** exceljs rewrites the whole workbook and does not carry these over; losing them silently is not an option. */
async function refuseUnkeptParts(bytes: Buffer, path: string): Promise<void> {
  const names = (await OoxmlPackage.load(bytes, path)).names();
  const found = UNKEPT_PARTS.filter(([pattern]) => names.some((n) => pattern.test(n))).map(([, label]) => label);
  if (found.length) {
    throw new Error(
      `${path} contains ${found.join(', ')}, which edit_xlsx cannot keep. Pass drop_unsupported: true (ideally with output: a new file) to edit anyway, or edit the workbook in a spreadsheet program.`,
    );
  }
}

/** Spreadsheet programs recalculate every formula when they open the file. */
async function workbookBytes(book: Workbook): Promise<Uint8Array> {
  book.calcProperties = { ...book.calcProperties, fullCalcOnLoad: true };
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/**
 * After values change, a formula's cached result may be wrong; it is dropped (the formula stays) so no
 * reader is shown a stale number. Cells written in this call keep the result they were given.
 */
function dropStaleResults(book: Workbook, written: Set<Cell>): void {
  for (const sheet of book.worksheets) {
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.formula && !written.has(cell) && cell.result !== undefined)
          cell.value = { formula: cell.formula } as Cell['value'];
      }),
    );
  }
}

function findSheet(book: Workbook, ref: string | number): Worksheet {
  const sheet = typeof ref === 'number' ? book.worksheets[ref - 1] : book.getWorksheet(ref);
  if (!sheet)
    throw new Error(
      `No sheet ${typeof ref === 'number' ? `at position ${ref}` : `named "${ref}"`}; the sheets are: ${book.worksheets.map((s) => `"${s.name}"`).join(', ')}.`,
    );
  return sheet;
}

export async function createXlsx(args: CreateArgs): Promise<string> {
  const path = resolveDocumentPath(args.path);
  expectFormat(path, 'xlsx');
  checkCreateTarget(path, args.overwrite);
  const book = await newWorkbook();
  book.creator = 'Jarvis Documents';
  for (const spec of args.sheets) {
    if (book.getWorksheet(spec.name)) throw new Error(`Two sheets are named "${spec.name}"; sheet names must differ.`);
    const sheet = book.addWorksheet(spec.name, spec.bold_header ? { views: [{ state: 'frozen', ySplit: 1 }] } : {});
    writeRows(sheet, spec.rows, 1);
    spec.column_widths?.forEach((width, c) => {
      sheet.getColumn(c + 1).width = width;
    });
    if (spec.bold_header && spec.rows.length) sheet.getRow(1).font = { bold: true };
  }
  writeDocument(path, await workbookBytes(book));
  return `Created ${path} (${args.sheets.length} sheet(s): ${args.sheets.map((s) => `"${s.name}" ${s.rows.length} row(s)`).join(', ')}).`;
}

export async function loadWorkbook(bytes: Buffer, path: string): Promise<Workbook> {
  const book = await newWorkbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (e) {
    throw new Error(`${path} is not a readable XLSX workbook: ${(e as Error).message}`);
  }
  return book;
}

export async function editXlsx(args: EditArgs): Promise<string> {
  const { path, output } = editTargets(args, 'xlsx');
  const bytes = readDocument(path);
  if (!args.drop_unsupported) await refuseUnkeptParts(bytes, path);
  const book = await loadWorkbook(bytes, path);
  const done: string[] = [];
  const written = new Set<Cell>();
  const valuesChanged = args.operations.some((op) =>
    ['set_cells', 'append_rows', 'insert_rows', 'delete_rows', 'delete_sheet'].includes(op.op),
  );
  await applyOperations(args.operations, async (op) => {
    switch (op.op) {
      case 'set_cells': {
        const sheet = findSheet(book, op.sheet);
        for (const [ref, input] of Object.entries(op.cells)) {
          const cell = sheet.getCell(ref.toUpperCase());
          setCell(cell, input);
          written.add(cell);
        }
        done.push(`${Object.keys(op.cells).length} cell(s) set on "${sheet.name}"`);
        break;
      }
      case 'append_rows': {
        const sheet = findSheet(book, op.sheet);
        writeRows(sheet, op.rows, sheet.actualRowCount === 0 ? 1 : sheet.lastRow!.number + 1);
        done.push(`${op.rows.length} row(s) appended to "${sheet.name}"`);
        break;
      }
      case 'insert_rows': {
        const sheet = findSheet(book, op.sheet);
        sheet.spliceRows(op.at, 0, ...op.rows.map(() => []));
        writeRows(sheet, op.rows, op.at);
        done.push(
          `${op.rows.length} row(s) inserted at row ${op.at} of "${sheet.name}" (formulas elsewhere are not re-pointed)`,
        );
        break;
      }
      case 'delete_rows': {
        const sheet = findSheet(book, op.sheet);
        sheet.spliceRows(op.from, op.count);
        done.push(
          `${op.count} row(s) deleted from row ${op.from} of "${sheet.name}" (formulas elsewhere are not re-pointed)`,
        );
        break;
      }
      case 'add_sheet': {
        if (book.getWorksheet(op.name)) throw new Error(`A sheet named "${op.name}" exists already.`);
        writeRows(book.addWorksheet(op.name), op.rows, 1);
        done.push(`sheet "${op.name}" added`);
        break;
      }
      case 'rename_sheet': {
        const sheet = findSheet(book, op.sheet);
        if (book.getWorksheet(op.name)) throw new Error(`A sheet named "${op.name}" exists already.`);
        done.push(`sheet "${sheet.name}" renamed to "${op.name}" (formulas that name the old sheet are not rewritten)`);
        sheet.name = op.name;
        break;
      }
      case 'delete_sheet': {
        const sheet = findSheet(book, op.sheet);
        if (book.worksheets.length === 1) throw new Error('A workbook needs at least one sheet.');
        book.removeWorksheet(sheet.id);
        done.push(`sheet "${sheet.name}" deleted`);
        break;
      }
      case 'set_column_width': {
        const sheet = findSheet(book, op.sheet);
        sheet.getColumn(op.column.toUpperCase()).width = op.width;
        done.push(`column ${op.column.toUpperCase()} of "${sheet.name}" set to width ${op.width}`);
        break;
      }
    }
  });
  if (valuesChanged) dropStaleResults(book, written);
  writeDocument(output, await workbookBytes(book));
  return `Saved ${output}: ${done.join('; ')}.${valuesChanged ? ' Cached formula results were cleared; spreadsheet programs recalculate on open.' : ''}`;
}
