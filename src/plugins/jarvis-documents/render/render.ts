// render_document: one page (PDF, DOCX), sheet (XLSX) or slide (PPTX) as a PNG, plus the text that is
// visible on it. PDF pages are drawn by pdf.js (the viewer Firefox uses) on a canvas in headless
// Chromium; the Office formats are converted to HTML that keeps their layout and styling and
// screenshotted there. docs/plugins-official.md says why this is not LibreOffice.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { formatOf, readDocument, resolveDocumentPath, writeDocument } from '../documentFiles';
import { OoxmlPackage } from '../formats/ooxmlPackage';
import { loadWorkbook } from '../formats/xlsxTools';
import { ChromiumPipe, type PipePage } from './chromiumPipe';
import { DOCX_PAGE, DocxHtml } from './docxHtml';
import { htmlShell } from './htmlPage';
import { PptxHtml } from './pptxHtml';
import { sheetHtml } from './xlsxHtml';

export interface RenderResult {
  output: string;
  unit: 'page' | 'sheet' | 'slide';
  number: number;
  count: number;
  width: number;
  height: number;
  text: string;
  note?: string;
}

const PDF_SCALE = 1.5;
const MAX_SHEET_HEIGHT = 6000;
const TEXT_LIMIT = 4000;

/**
 * pdf.js ships gzipped beside the bundled server (bin/pdfjs, found through JARVIS_PLUGIN_BIN_DIR, which
 * the server's launcher sets); run from the sources, it comes from node_modules.
 */
function pdfjsSource(name: string): string {
  const bin = process.env.JARVIS_PLUGIN_BIN_DIR;
  const bundled = bin ? join(bin, 'pdfjs', `${name}.gz`) : undefined;
  if (bundled && existsSync(bundled)) return gunzipSync(readFileSync(bundled)).toString('utf8');
  return readFileSync(createRequire(import.meta.url).resolve(`pdfjs-dist/build/${name}`), 'utf8');
}

let browser: Promise<ChromiumPipe> | undefined;

function chromium(): Promise<ChromiumPipe> {
  browser ??= ChromiumPipe.launch().catch((e: unknown) => {
    browser = undefined;
    throw e;
  });
  return browser;
}

export async function closeRenderer(): Promise<void> {
  const running = browser;
  browser = undefined;
  if (running) await (await running.catch(() => undefined))?.close();
}

function defaultOutput(path: string, unit: string, n: number): string {
  return join(dirname(path), '.renders', `${basename(path)}.${unit}-${n}.png`);
}

/** Text of the elements that lie within a horizontal band of the page (pagination of DOCX). */
const TEXT_IN_BAND = `((top, bottom) => { const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); const out = []; const r = document.createRange();
  for (let n = w.nextNode(); n; n = w.nextNode()) { if (!n.textContent.trim()) continue; r.selectNodeContents(n); const b = r.getBoundingClientRect(); if (b.top >= top - 1 && b.top < bottom) out.push(n.textContent); }
  return out.join(' ').replace(/\\s+/g, ' ').trim(); })`;

async function renderPdf(page: PipePage, bytes: Buffer, n: number): Promise<Omit<RenderResult, 'output'>> {
  const lib = JSON.stringify(pdfjsSource('pdf.min.mjs'));
  const worker = JSON.stringify(pdfjsSource('pdf.worker.min.mjs'));
  const info = await page.evaluate<{
    width: number;
    height: number;
    count: number;
    text: string;
    error?: string;
  }>(`(async () => {
    const blob = (code) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const pdfjs = await import(blob(${lib}));
    pdfjs.GlobalWorkerOptions.workerSrc = blob(${worker});
    const bytes = Uint8Array.from(atob(${JSON.stringify(bytes.toString('base64'))}), (c) => c.charCodeAt(0));
    const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false }).promise;
    if (${n} > doc.numPages) return { count: doc.numPages, width: 0, height: 0, text: '', error: 'no such page' };
    const p = await doc.getPage(${n});
    const viewport = p.getViewport({ scale: ${PDF_SCALE} });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width); canvas.height = Math.ceil(viewport.height);
    canvas.style.display = 'block';
    document.body.style.margin = '0'; document.body.append(canvas);
    const ctx = canvas.getContext('2d'); ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, canvas.width, canvas.height);
    await p.render({ canvas, canvasContext: ctx, viewport }).promise;
    const text = (await p.getTextContent()).items.map((i) => i.str ?? '').join(' ').replace(/\\s+/g, ' ').trim();
    return { count: doc.numPages, width: canvas.width, height: canvas.height, text };
  })()`);
  if (info.error) throw new Error(`There is no page ${n}; the document has ${info.count}.`);
  return { unit: 'page', number: n, count: info.count, width: info.width, height: info.height, text: info.text };
}

async function renderDocx(page: PipePage, pkg: OoxmlPackage, n: number): Promise<Omit<RenderResult, 'output'>> {
  await page.setContent(htmlShell(await DocxHtml.convert(pkg)));
  // Content after a page break starts on the next page; then the flow is cut into A4 pages.
  const count = await page.evaluate<number>(`(() => { const H = ${DOCX_PAGE.height}, M = ${DOCX_PAGE.margin};
    for (const b of document.querySelectorAll('.page-break')) { const top = b.getBoundingClientRect().top + scrollY; const next = Math.ceil((top + 1) / H) * H + M; b.style.height = (next - top) + 'px'; }
    return Math.max(1, Math.ceil((document.body.scrollHeight - M) / H)); })()`);
  if (n > count) throw new Error(`There is no page ${n}; the document lays out on ${count} page(s).`);
  const top = (n - 1) * DOCX_PAGE.height;
  const text = await page.evaluate<string>(`${TEXT_IN_BAND}(${top}, ${top + DOCX_PAGE.height})`);
  return {
    unit: 'page',
    number: n,
    count,
    width: DOCX_PAGE.width,
    height: DOCX_PAGE.height,
    text,
    note: 'Pages are laid out by the renderer (A4); Word may break pages elsewhere.',
  };
}

async function pageBox(page: PipePage): Promise<{ width: number; height: number; text: string }> {
  return page.evaluate(
    `(() => { const p = document.querySelector('.page').getBoundingClientRect(); return { width: Math.ceil(p.width), height: Math.ceil(p.height), text: document.querySelector('.page').innerText.replace(/\\s+/g, ' ').trim() }; })()`,
  );
}

export async function renderDocument(args: { path: string; page?: number; output?: string }): Promise<RenderResult> {
  const path = resolveDocumentPath(args.path);
  const format = formatOf(path);
  const bytes = readDocument(path);
  const n = args.page ?? 1;
  const page = await (
    await chromium()
  ).openPage(format === 'docx' ? DOCX_PAGE.width : 1280, format === 'docx' ? DOCX_PAGE.height : 800);
  try {
    let result: Omit<RenderResult, 'output'>;
    let clip: { x: number; y: number; width: number; height: number };
    if (format === 'pdf') {
      result = await renderPdf(page, bytes, n);
      clip = { x: 0, y: 0, width: result.width, height: result.height };
    } else if (format === 'docx') {
      result = await renderDocx(page, await OoxmlPackage.load(bytes, path), n);
      clip = { x: 0, y: (n - 1) * DOCX_PAGE.height, width: DOCX_PAGE.width, height: DOCX_PAGE.height };
    } else if (format === 'pptx') {
      const slide = await PptxHtml.convert(await OoxmlPackage.load(bytes, path), n);
      await page.setContent(htmlShell(slide.html));
      const box = await pageBox(page);
      result = {
        unit: 'slide',
        number: n,
        count: slide.slides,
        width: slide.width,
        height: slide.height,
        text: box.text,
      };
      clip = { x: 0, y: 0, width: slide.width, height: slide.height };
    } else {
      const book = await loadWorkbook(bytes, path);
      const sheet = book.worksheets[n - 1];
      if (!sheet) throw new Error(`There is no sheet ${n}; the workbook has ${book.worksheets.length}.`);
      const converted = sheetHtml(sheet);
      await page.setContent(htmlShell(converted.html));
      const box = await pageBox(page);
      const height = Math.min(box.height, MAX_SHEET_HEIGHT);
      result = {
        unit: 'sheet',
        number: n,
        count: book.worksheets.length,
        width: box.width,
        height,
        text: box.text,
        note: converted.truncated
          ? `Only the first ${converted.rows} rows and ${converted.columns} columns are drawn.`
          : undefined,
      };
      clip = { x: 0, y: 0, width: box.width, height };
    }
    const output = args.output ? resolveDocumentPath(args.output) : defaultOutput(path, result.unit, n);
    if (!output.toLowerCase().endsWith('.png')) throw new Error(`output must be a .png file (got ${output}).`);
    writeDocument(output, await page.screenshot(clip));
    return {
      ...result,
      output,
      text: result.text.length > TEXT_LIMIT ? `${result.text.slice(0, TEXT_LIMIT)}…` : result.text,
    };
  } finally {
    await page.close();
  }
}
