// inspect_document: what a document holds, in the terms the edit tools use (DOCX body element numbers,
// sheet names and A1 cells, slide numbers, PDF page numbers), so edits can name their targets.
import { bodyElements } from './formats/docxEdit';
import { descendantsNamed, OoxmlPackage } from './formats/ooxmlPackage';
import { loadPdf } from './formats/pdfTools';
import { deckSlides } from './formats/pptxEdit';
import { loadWorkbook } from './formats/xlsxTools';
import { formatOf, readDocument, resolveDocumentPath } from './documentFiles';

function clip(lines: string[], max: number): string {
  let out = '';
  for (const [i, line] of lines.entries()) {
    if (out.length + line.length + 1 > max)
      return `${out}… (${lines.length - i} more line(s); raise max_chars to see them)`;
    out += `${line}\n`;
  }
  return out.trimEnd();
}

const short = (text: string, n = 200) => (text.length > n ? `${text.slice(0, n)}…` : text);

export async function inspectDocument(rawPath: string, maxChars: number): Promise<string> {
  const path = resolveDocumentPath(rawPath);
  const format = formatOf(path);
  const bytes = readDocument(path);
  const lines: string[] = [];
  if (format === 'pdf') {
    const doc = await loadPdf(bytes, path);
    lines.push(
      `PDF ${path}: ${doc.getPageCount()} page(s)${doc.getTitle() ? `, title "${doc.getTitle()}"` : ''}${doc.getAuthor() ? `, author "${doc.getAuthor()}"` : ''}`,
    );
    doc
      .getPages()
      .forEach((p, i) =>
        lines.push(
          `page ${i + 1}: ${Math.round(p.getWidth())}×${Math.round(p.getHeight())} pt${p.getRotation().angle ? `, rotated ${p.getRotation().angle}°` : ''}`,
        ),
      );
    lines.push('(Page text: render_document returns the visible text of a page.)');
  } else if (format === 'xlsx') {
    const book = await loadWorkbook(bytes, path);
    for (const sheet of book.worksheets) {
      lines.push(`sheet ${sheet.id} "${sheet.name}" (${sheet.rowCount} row(s) × ${sheet.columnCount} column(s))`);
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          const value = cell.formula
            ? `=${cell.formula}${cell.result !== undefined ? ` → ${JSON.stringify(cell.result)}` : ''}`
            : JSON.stringify(cell.value);
          lines.push(
            `  ${cell.address}: ${short(value)}${cell.font?.bold ? ' [bold]' : ''}${cell.numFmt ? ` [${cell.numFmt}]` : ''}`,
          );
        }),
      );
    }
  } else {
    const pkg = await OoxmlPackage.load(bytes, path);
    if (format === 'docx') {
      const elements = bodyElements(await pkg.xml('word/document.xml'));
      lines.push(`DOCX ${path}: ${elements.length} body element(s)`);
      elements.forEach((el, i) => {
        const style = descendantsNamed(el, 'w:pStyle')[0]?.getAttribute('w:val');
        const textOf = (node: typeof el) =>
          descendantsNamed(node, 'w:t')
            .map((t) => t.textContent ?? '')
            .join('');
        const text =
          el.nodeName === 'w:tbl'
            ? descendantsNamed(el, 'w:tr')
                .map((tr) => descendantsNamed(tr, 'w:tc').map(textOf).join(' | '))
                .join(' / ')
            : textOf(el);
        const kind =
          el.nodeName === 'w:tbl'
            ? `table ${descendantsNamed(el, 'w:tr').length} row(s)`
            : el.nodeName === 'w:p'
              ? 'paragraph'
              : el.nodeName;
        lines.push(`[${i + 1}] ${kind}${style ? ` (${style})` : ''}: ${short(text) || '(empty)'}`);
      });
    } else {
      const slides = await deckSlides(pkg, await pkg.xml('ppt/presentation.xml'));
      lines.push(`PPTX ${path}: ${slides.length} slide(s)`);
      for (const [i, slide] of slides.entries()) {
        const xml = await pkg.xml(slide.part);
        const paragraphs = descendantsNamed(xml, 'a:p')
          .map((p) =>
            descendantsNamed(p, 'a:t')
              .map((t) => t.textContent ?? '')
              .join(''),
          )
          .filter(Boolean);
        lines.push(`slide ${i + 1} (${slide.part}): ${short(paragraphs.join(' | '), 400) || '(no text)'}`);
      }
    }
  }
  return clip(lines, maxChars);
}
