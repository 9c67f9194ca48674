// PPTX slide → HTML for the renderer: every shape at its position and size (taken from the slide, or
// from the matching placeholder of its layout or master), with its fill, text (size, bold, italic,
// colour, alignment, bullets), pictures and tables; the slide background colour. 1 EMU = 1/9525 px.
import type { Document, Element } from '@xmldom/xmldom';
import { deckSlides } from '../formats/pptxEdit';
import { childrenNamed, descendantsNamed, type OoxmlPackage } from '../formats/ooxmlPackage';
import { escapeHtml, imageDataUri } from './htmlPage';

const px = (emu: string | null | undefined) => Math.round(Number(emu ?? 0) / 9525);

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function xfrmOf(el: Element): Box | undefined {
  const xfrm = descendantsNamed(el, 'a:xfrm')[0] ?? descendantsNamed(el, 'p:xfrm')[0];
  const off = xfrm && childrenNamed(xfrm, 'a:off')[0];
  const ext = xfrm && childrenNamed(xfrm, 'a:ext')[0];
  if (!off || !ext) return undefined;
  return {
    x: px(off.getAttribute('x')),
    y: px(off.getAttribute('y')),
    w: px(ext.getAttribute('cx')),
    h: px(ext.getAttribute('cy')),
  };
}

function solidColor(parent: Element | undefined): string | undefined {
  const fill = parent && childrenNamed(parent, 'a:solidFill')[0];
  const rgb = fill && childrenNamed(fill, 'a:srgbClr')[0]?.getAttribute('val');
  return rgb ? `#${rgb}` : undefined;
}

function placeholderKey(sp: Element): string | undefined {
  const ph = descendantsNamed(sp, 'p:ph')[0];
  if (!ph) return undefined;
  return `${ph.getAttribute('type') || 'body'}:${ph.getAttribute('idx') ?? ''}`;
}

export class PptxHtml {
  private readonly placeholders = new Map<string, Box>();
  private readonly images = new Map<string, string>();

  private constructor(private readonly pkg: OoxmlPackage) {}

  /** The HTML of slide `n` (1-based) and the slide size in px. */
  static async convert(
    pkg: OoxmlPackage,
    n: number,
  ): Promise<{ html: string; width: number; height: number; slides: number }> {
    const presentation = await pkg.xml('ppt/presentation.xml');
    const slides = await deckSlides(pkg, presentation);
    if (n > slides.length) throw new Error(`There is no slide ${n}; the deck has ${slides.length}.`);
    const size = descendantsNamed(presentation, 'p:sldSz')[0];
    const width = px(size?.getAttribute('cx') ?? '9144000');
    const height = px(size?.getAttribute('cy') ?? '5143500');
    const converter = new PptxHtml(pkg);
    const part = slides[n - 1].part;
    const slide = await pkg.xml(part);
    const background = await converter.prepare(part, slide);
    const shapes = descendantsNamed(slide, 'p:spTree')[0];
    const inner = shapes ? converter.children(shapes) : '';
    const html = `<div class="page" style="position:relative;overflow:hidden;width:${width}px;height:${height}px;background:${background};font-family:Calibri,Carlito,'Liberation Sans',Arial,sans-serif">${inner}</div>`;
    return { html, width, height, slides: slides.length };
  }

  /** Loads the pictures of the slide and the placeholder positions of its layout and master. */
  private async prepare(part: string, slide: Document): Promise<string> {
    const rels = await this.pkg.relationships(part);
    for (const rel of rels) {
      if (rel.type.endsWith('/image') && !rel.external && this.pkg.has(rel.target))
        this.images.set(rel.id, imageDataUri(rel.target, await this.pkg.bytes(rel.target)));
    }
    let background = solidColor(descendantsNamed(slide, 'p:bgPr')[0]);
    const layout = rels.find((r) => r.type.endsWith('/slideLayout'))?.target;
    const master =
      layout && this.pkg.has(layout)
        ? (await this.pkg.relationships(layout)).find((r) => r.type.endsWith('/slideMaster'))?.target
        : undefined;
    // The master first, so the layout's placeholders override it.
    for (const source of [master, layout]) {
      if (!source || !this.pkg.has(source)) continue;
      const xml = await this.pkg.xml(source);
      background ??= solidColor(descendantsNamed(xml, 'p:bgPr')[0]);
      for (const sp of descendantsNamed(xml, 'p:sp')) {
        const key = placeholderKey(sp);
        const box = xfrmOf(sp);
        if (!key || !box) continue;
        this.placeholders.set(key, box);
        this.placeholders.set(key.split(':')[0] + ':', box);
      }
    }
    return background ?? '#FFFFFF';
  }

  private children(tree: Element): string {
    return Array.from(tree.childNodes)
      .filter((n): n is Element => n.nodeType === 1)
      .map((el) => {
        switch (el.nodeName) {
          case 'p:sp':
            return this.shape(el);
          case 'p:pic':
            return this.picture(el);
          case 'p:graphicFrame':
            return this.frame(el);
          case 'p:grpSp':
            return this.children(el);
          default:
            return '';
        }
      })
      .join('');
  }

  private boxOf(el: Element): Box | undefined {
    const spPr = childrenNamed(el, 'p:spPr')[0];
    const own = spPr ? xfrmOf(spPr) : undefined;
    if (own) return own;
    const key = placeholderKey(el);
    return key ? (this.placeholders.get(key) ?? this.placeholders.get(`${key.split(':')[0]}:`)) : undefined;
  }

  private shape(sp: Element): string {
    const box = this.boxOf(sp);
    if (!box) return '';
    const spPr = childrenNamed(sp, 'p:spPr')[0];
    const fill = solidColor(spPr);
    const line = spPr && childrenNamed(spPr, 'a:ln')[0];
    const border =
      line && solidColor(line)
        ? `border:${Math.max(1, px(line.getAttribute('w') ?? '9525'))}px solid ${solidColor(line)};`
        : '';
    const round =
      spPr && descendantsNamed(spPr, 'a:prstGeom')[0]?.getAttribute('prst') === 'ellipse' ? 'border-radius:50%;' : '';
    const body = childrenNamed(sp, 'p:txBody')[0];
    const anchor = body && descendantsNamed(body, 'a:bodyPr')[0]?.getAttribute('anchor');
    const justify = anchor === 'ctr' ? 'center' : anchor === 'b' ? 'flex-end' : 'flex-start';
    const isTitle = (placeholderKey(sp) ?? '').startsWith('title') || (placeholderKey(sp) ?? '').startsWith('ctrTitle');
    const text = body ? this.paragraphs(body, isTitle ? 44 : 18) : '';
    return `<div style="position:absolute;left:${box.x}px;top:${box.y}px;width:${box.w}px;height:${box.h}px;box-sizing:border-box;${fill ? `background:${fill};` : ''}${border}${round}display:flex;flex-direction:column;justify-content:${justify};padding:4px 10px;overflow:hidden">${text}</div>`;
  }

  private paragraphs(body: Element, defaultPt: number): string {
    return childrenNamed(body, 'a:p')
      .map((p) => {
        const pPr = childrenNamed(p, 'a:pPr')[0];
        const align = { ctr: 'center', r: 'right', just: 'justify' }[pPr?.getAttribute('algn') ?? ''] ?? 'left';
        const bullet = pPr && childrenNamed(pPr, 'a:buChar')[0]?.getAttribute('char');
        const autoNumber = pPr && childrenNamed(pPr, 'a:buAutoNum').length;
        let firstSize = defaultPt;
        const runs = Array.from(p.childNodes)
          .filter(
            (n): n is Element =>
              n.nodeType === 1 && (n as Element).nodeName !== 'a:pPr' && (n as Element).nodeName !== 'a:endParaRPr',
          )
          .map((r, i) => {
            if (r.nodeName === 'a:br') return '<br>';
            const rPr = childrenNamed(r, 'a:rPr')[0];
            const size = rPr?.getAttribute('sz') ? Number(rPr.getAttribute('sz')) / 100 : defaultPt;
            if (i === 0) firstSize = size;
            const css = [`font-size:${size}pt`];
            if (rPr?.getAttribute('b') === '1') css.push('font-weight:bold');
            if (rPr?.getAttribute('i') === '1') css.push('font-style:italic');
            if (rPr?.getAttribute('u') && rPr.getAttribute('u') !== 'none') css.push('text-decoration:underline');
            const color = solidColor(rPr);
            if (color) css.push(`color:${color}`);
            return `<span style="${css.join(';')}">${escapeHtml(
              descendantsNamed(r, 'a:t')
                .map((t) => t.textContent ?? '')
                .join(''),
            )}</span>`;
          })
          .join('');
        const marker = bullet
          ? `<span style="display:inline-block;width:1.2em">${escapeHtml(bullet)}</span>`
          : autoNumber
            ? '<span style="display:inline-block;width:1.2em">•</span>'
            : '';
        return `<div style="text-align:${align};font-size:${firstSize}pt;line-height:1.2;margin:0 0 4px 0;white-space:pre-wrap">${marker}${runs || '&#8203;'}</div>`;
      })
      .join('');
  }

  private picture(pic: Element): string {
    const box = this.boxOf(pic);
    const blip = descendantsNamed(pic, 'a:blip')[0];
    const src = blip ? this.images.get(blip.getAttribute('r:embed') ?? '') : undefined;
    if (!box || !src) return '';
    return `<img src="${src}" style="position:absolute;left:${box.x}px;top:${box.y}px;width:${box.w}px;height:${box.h}px">`;
  }

  private frame(frame: Element): string {
    const xfrm = childrenNamed(frame, 'p:xfrm')[0];
    const off = xfrm && childrenNamed(xfrm, 'a:off')[0];
    const table = descendantsNamed(frame, 'a:tbl')[0];
    if (!off || !table) return '';
    const widths = descendantsNamed(table, 'a:gridCol').map((g) => px(g.getAttribute('w')));
    const rows = childrenNamed(table, 'a:tr')
      .map(
        (tr) =>
          `<tr style="height:${px(tr.getAttribute('h'))}px">${childrenNamed(tr, 'a:tc')
            .map((tc, c) => {
              const tcPr = childrenNamed(tc, 'a:tcPr')[0];
              const fill = solidColor(tcPr);
              const body = childrenNamed(tc, 'a:txBody')[0];
              return `<td style="width:${widths[c] ?? 80}px;border:1px solid #8c8c8c;padding:2px 6px;vertical-align:top;${fill ? `background:${fill}` : ''}">${body ? this.paragraphs(body, 18) : ''}</td>`;
            })
            .join('')}</tr>`,
      )
      .join('');
    return `<table style="position:absolute;left:${px(off.getAttribute('x'))}px;top:${px(off.getAttribute('y'))}px;border-collapse:collapse">${rows}</table>`;
  }
}
