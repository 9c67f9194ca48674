// DOCX → HTML for the renderer: paragraphs with their heading style, alignment, indentation and run
// formatting (bold, italic, underline, colour, size, highlight), lists, tables with borders and shading,
// inline pictures, and page breaks. Pages are A4 at 96 dpi; the page script in render.ts cuts the flow
// into pages and pushes content after a page break to the next one.
import type { Element } from '@xmldom/xmldom';
import { bodyElements } from '../formats/docxEdit';
import { childrenNamed, descendantsNamed, type OoxmlPackage } from '../formats/ooxmlPackage';
import { escapeHtml, imageDataUri } from './htmlPage';

export const DOCX_PAGE = { width: 794, height: 1123, margin: 96 };
const HEADING_PT: Record<string, number> = {
  Title: 28,
  Heading1: 20,
  Heading2: 16,
  Heading3: 14,
  Heading4: 12,
  Heading5: 11,
  Heading6: 11,
};

function attr(parent: Element, child: string, name = 'w:val'): string | undefined {
  const el = childrenNamed(parent, child)[0];
  return el ? (el.getAttribute(name) ?? '') : undefined;
}

function runCss(rPr: Element | undefined): string {
  if (!rPr) return '';
  const css: string[] = [];
  const on = (name: string) => {
    const v = attr(rPr, name);
    return v !== undefined && v !== '0' && v !== 'false';
  };
  if (on('w:b')) css.push('font-weight:bold');
  if (on('w:i')) css.push('font-style:italic');
  const u = attr(rPr, 'w:u');
  if (u && u !== 'none') css.push('text-decoration:underline');
  if (on('w:strike')) css.push('text-decoration:line-through');
  const color = attr(rPr, 'w:color');
  if (color && /^[0-9A-Fa-f]{6}$/.test(color)) css.push(`color:#${color}`);
  const size = attr(rPr, 'w:sz');
  if (size) css.push(`font-size:${Number(size) / 2}pt`);
  const highlight = attr(rPr, 'w:highlight');
  if (highlight && highlight !== 'none') css.push(`background:${highlight}`);
  const shade = childrenNamed(rPr, 'w:shd')[0]?.getAttribute('w:fill');
  if (shade && /^[0-9A-Fa-f]{6}$/.test(shade)) css.push(`background:#${shade}`);
  return css.join(';');
}

export class DocxHtml {
  private constructor(private readonly images: Map<string, string>) {}

  static async convert(pkg: OoxmlPackage): Promise<string> {
    const images = new Map<string, string>();
    for (const rel of await pkg.relationships('word/document.xml')) {
      if (rel.type.endsWith('/image') && !rel.external && pkg.has(rel.target))
        images.set(rel.id, imageDataUri(rel.target, await pkg.bytes(rel.target)));
    }
    const converter = new DocxHtml(images);
    const doc = await pkg.xml('word/document.xml');
    const body = bodyElements(doc)
      .map((el) => converter.block(el))
      .join('');
    return `<div class="docx" style="width:${DOCX_PAGE.width - 2 * DOCX_PAGE.margin}px;padding:${DOCX_PAGE.margin}px;font:11pt Calibri,Carlito,'Liberation Sans',Arial,sans-serif;line-height:1.25">${body}</div>`;
  }

  private block(el: Element): string {
    if (el.nodeName === 'w:p') return this.paragraph(el);
    if (el.nodeName === 'w:tbl') return this.table(el);
    if (el.nodeName === 'w:sdt')
      return descendantsNamed(el, 'w:sdtContent')
        .flatMap((c) => Array.from(c.childNodes))
        .filter((n): n is Element => n.nodeType === 1)
        .map((c) => this.block(c))
        .join('');
    return '';
  }

  private paragraph(p: Element): string {
    const pPr = childrenNamed(p, 'w:pPr')[0];
    const style = pPr ? (attr(pPr, 'w:pStyle') ?? '') : '';
    const css: string[] = ['margin:0 0 8px 0', 'min-height:1.25em', 'white-space:pre-wrap'];
    const headingPt = HEADING_PT[style.replace(/\s/g, '')];
    if (headingPt) css.push(`font-size:${headingPt}pt`, 'font-weight:bold', 'color:#1F3864', 'margin:12px 0 6px 0');
    const jc = pPr ? attr(pPr, 'w:jc') : undefined;
    if (jc) css.push(`text-align:${jc === 'both' ? 'justify' : jc === 'end' ? 'right' : jc === 'start' ? 'left' : jc}`);
    const ind = pPr ? childrenNamed(pPr, 'w:ind')[0] : undefined;
    const left = Number(ind?.getAttribute('w:left') ?? ind?.getAttribute('w:start') ?? 0);
    const hanging = Number(ind?.getAttribute('w:hanging') ?? 0);
    const list = pPr ? childrenNamed(pPr, 'w:numPr')[0] : undefined;
    if (left || list)
      css.push(`padding-left:${(left || 720) / 15}px`, `text-indent:-${(hanging || (list ? 360 : 0)) / 15}px`);
    let html = list ? '<span style="display:inline-block;width:24px">•</span>' : '';
    const pageBreakBefore =
      pPr && childrenNamed(pPr, 'w:pageBreakBefore').length ? '<div class="page-break"></div>' : '';
    for (const node of Array.from(p.childNodes)) {
      if (node.nodeType !== 1) continue;
      const el = node as Element;
      if (el.nodeName === 'w:r') html += this.run(el);
      else if (el.nodeName === 'w:hyperlink' || el.nodeName === 'w:ins' || el.nodeName === 'w:smartTag')
        html += childrenNamed(el, 'w:r')
          .map((r) => this.run(r))
          .join('');
    }
    // A page break inside the paragraph ends the page after it.
    const breakAfter = descendantsNamed(p, 'w:br').some((b) => b.getAttribute('w:type') === 'page')
      ? '<div class="page-break"></div>'
      : '';
    return `${pageBreakBefore}<p style="${css.join(';')}">${html}</p>${breakAfter}`;
  }

  private run(r: Element): string {
    const css = runCss(childrenNamed(r, 'w:rPr')[0]);
    let text = '';
    for (const node of Array.from(r.childNodes)) {
      if (node.nodeType !== 1) continue;
      const el = node as Element;
      if (el.nodeName === 'w:t') text += escapeHtml(el.textContent ?? '');
      else if (el.nodeName === 'w:tab') text += '\t';
      else if (el.nodeName === 'w:br' && el.getAttribute('w:type') !== 'page') text += '<br>';
      else if (el.nodeName === 'w:drawing') text += this.drawing(el);
    }
    return css ? `<span style="${css}">${text}</span>` : text;
  }

  private drawing(el: Element): string {
    const extent = descendantsNamed(el, 'wp:extent')[0];
    const blip = descendantsNamed(el, 'a:blip')[0];
    const src = blip ? this.images.get(blip.getAttribute('r:embed') ?? '') : undefined;
    if (!src || !extent) return '';
    const px = (emu: string | null) => Math.round(Number(emu) / 9525);
    return `<img src="${src}" style="width:${px(extent.getAttribute('cx'))}px;height:${px(extent.getAttribute('cy'))}px;vertical-align:bottom">`;
  }

  private table(tbl: Element): string {
    const rows = childrenNamed(tbl, 'w:tr').map((tr) => {
      const cells = childrenNamed(tr, 'w:tc').map((tc) => {
        const tcPr = childrenNamed(tc, 'w:tcPr')[0];
        const span = tcPr ? Number(attr(tcPr, 'w:gridSpan') ?? 1) : 1;
        const fill = tcPr ? childrenNamed(tcPr, 'w:shd')[0]?.getAttribute('w:fill') : undefined;
        const background = fill && /^[0-9A-Fa-f]{6}$/.test(fill) ? `background:#${fill};` : '';
        const content = Array.from(tc.childNodes)
          .filter((n): n is Element => n.nodeType === 1)
          .map((c) => this.block(c))
          .join('');
        return `<td colspan="${span}" style="${background}border:1px solid #8c8c8c;padding:2px 6px;vertical-align:top">${content}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    });
    return `<table style="border-collapse:collapse;width:100%;margin:0 0 8px 0">${rows.join('')}</table>`;
  }
}
