// XLSX sheet → HTML for the renderer: a spreadsheet grid (column letters, row numbers) with the sheet's
// column widths, row heights, merged cells, fills, fonts, alignment, borders and number formats. A
// formula shows its cached result; one without a cached result (never opened in a spreadsheet program)
// shows the formula itself, in italics, rather than a value we would have to guess.
import type { Cell, Worksheet } from 'exceljs';
import { escapeHtml } from './htmlPage';

export const MAX_RENDER_ROWS = 200;
export const MAX_RENDER_COLUMNS = 40;

function columnName(n: number): string {
  let name = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function argbCss(argb: string | undefined): string | undefined {
  return argb && /^[0-9A-Fa-f]{8}$/.test(argb) ? `#${argb.slice(2)}` : undefined;
}

/** The common number formats, the way a spreadsheet program shows them. */
export function formatNumber(value: number, format: string | undefined): string {
  if (!format || format === 'General') return String(Math.round(value * 1e10) / 1e10);
  const percent = format.includes('%');
  const shown = percent ? value * 100 : value;
  const decimals = (format.split('.')[1] ?? '').replace(/[^0#]/g, '').length;
  const grouped = format.includes(',');
  const text = shown.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: grouped,
  });
  const currency = format.match(/[$€£]/)?.[0] ?? '';
  return `${currency}${text}${percent ? '%' : ''}`;
}

function display(cell: Cell): { text: string; formulaOnly: boolean; numeric: boolean } {
  const value = cell.value;
  if (value === null || value === undefined) return { text: '', formulaOnly: false, numeric: false };
  if (typeof value === 'object' && 'formula' in value && value.formula) {
    const result = value.result;
    if (result === undefined || result === null)
      return { text: `=${value.formula}`, formulaOnly: true, numeric: false };
    if (typeof result === 'number')
      return { text: formatNumber(result, cell.numFmt), formulaOnly: false, numeric: true };
    if (typeof result === 'object' && 'error' in result)
      return { text: String(result.error), formulaOnly: false, numeric: false };
    return { text: String(result), formulaOnly: false, numeric: false };
  }
  if (typeof value === 'number') return { text: formatNumber(value, cell.numFmt), formulaOnly: false, numeric: true };
  if (value instanceof Date) return { text: value.toISOString().slice(0, 10), formulaOnly: false, numeric: true };
  if (typeof value === 'object' && 'richText' in value)
    return { text: value.richText.map((p) => p.text).join(''), formulaOnly: false, numeric: false };
  if (typeof value === 'object' && 'text' in value)
    return { text: String(value.text), formulaOnly: false, numeric: false };
  return { text: String(value), formulaOnly: false, numeric: false };
}

function cellCss(cell: Cell, numeric: boolean): string {
  const css: string[] = [];
  const font = cell.font ?? {};
  if (font.bold) css.push('font-weight:bold');
  if (font.italic) css.push('font-style:italic');
  if (font.underline) css.push('text-decoration:underline');
  if (font.size) css.push(`font-size:${font.size}pt`);
  const color = argbCss(font.color?.argb);
  if (color) css.push(`color:${color}`);
  const fill =
    cell.fill?.type === 'pattern' && cell.fill.pattern === 'solid' ? argbCss(cell.fill.fgColor?.argb) : undefined;
  if (fill) css.push(`background:${fill}`);
  css.push(`text-align:${cell.alignment?.horizontal ?? (numeric ? 'right' : 'left')}`);
  for (const side of ['top', 'left', 'bottom', 'right'] as const) {
    const border = cell.border?.[side];
    if (border?.style)
      css.push(
        `border-${side}:${border.style === 'thick' || border.style === 'medium' ? 2 : 1}px solid ${argbCss(border.color?.argb) ?? '#000'}`,
      );
  }
  return css.join(';');
}

export function sheetHtml(sheet: Worksheet): { html: string; rows: number; columns: number; truncated: boolean } {
  const rows = Math.min(Math.max(sheet.rowCount, 1), MAX_RENDER_ROWS);
  const columns = Math.min(Math.max(sheet.columnCount, 1), MAX_RENDER_COLUMNS);
  const truncated = sheet.rowCount > rows || sheet.columnCount > columns;
  const widths = Array.from({ length: columns }, (_, c) => Math.round((sheet.getColumn(c + 1).width ?? 9) * 7 + 5));
  // Cells hidden under a merge are skipped; the merge's master cell spans them.
  const covered = new Set<string>();
  const spans = new Map<string, { rows: number; cols: number }>();
  const merges = (sheet.model as { merges?: string[] }).merges ?? [];
  for (const range of merges) {
    const [from, to] = range.split(':').map((ref) => sheet.getCell(ref));
    spans.set(from.address, {
      rows: Number(to.row) - Number(from.row) + 1,
      cols: Number(to.col) - Number(from.col) + 1,
    });
    for (let r = Number(from.row); r <= Number(to.row); r++)
      for (let c = Number(from.col); c <= Number(to.col); c++)
        if (r !== Number(from.row) || c !== Number(from.col)) covered.add(`${r}:${c}`);
  }
  const head = `<tr><th class="corner"></th>${widths.map((w, c) => `<th style="width:${w}px;min-width:${w}px;max-width:${w}px">${columnName(c + 1)}</th>`).join('')}</tr>`;
  const body: string[] = [];
  for (let r = 1; r <= rows; r++) {
    const row = sheet.getRow(r);
    const height = row.height ? `height:${Math.round((row.height * 4) / 3)}px;` : '';
    let html = `<tr style="${height}"><th>${r}</th>`;
    for (let c = 1; c <= columns; c++) {
      if (covered.has(`${r}:${c}`)) continue;
      const cell = row.getCell(c);
      const shown = display(cell);
      const span = spans.get(cell.address);
      const attrs = span ? ` rowspan="${span.rows}" colspan="${span.cols}"` : '';
      const css = cellCss(cell, shown.numeric) + (shown.formulaOnly ? ';font-style:italic;color:#555' : '');
      html += `<td${attrs} style="${css}">${escapeHtml(shown.text)}</td>`;
    }
    body.push(`${html}</tr>`);
  }
  const style = `<style>.sheet{border-collapse:collapse;font:11pt Calibri,Carlito,'Liberation Sans',Arial,sans-serif;table-layout:fixed}
.sheet td,.sheet th{border:1px solid #d4d4d4;padding:1px 4px;white-space:nowrap;overflow:hidden;height:20px}
.sheet th{background:#f0f0f0;color:#444;font-weight:normal;text-align:center;font-size:9pt}.sheet th.corner{width:36px;min-width:36px}</style>`;
  const title = `<div style="font:bold 12px sans-serif;padding:6px 8px;background:#e8eef6">Sheet "${escapeHtml(sheet.name)}"${truncated ? ` — first ${rows} rows × ${columns} columns` : ''}</div>`;
  return {
    html: `${style}<div class="page" style="display:inline-block">${title}<table class="sheet">${head}${body.join('')}</table></div>`,
    rows,
    columns,
    truncated,
  };
}
