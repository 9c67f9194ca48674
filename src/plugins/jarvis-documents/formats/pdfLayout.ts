// Lays content blocks out on PDF pages with pdf-lib: wraps text to the page width, starts a new page
// when the current one is full, draws tables with borders. The standard PDF fonts only encode Latin-1
// style text (WinAnsi); other characters are replaced by "?" and counted, so the caller can say so.
import { PDFDocument, PDFFont, PDFPage, StandardFonts, rgb } from 'pdf-lib';
import { rgbOf, type Block } from '../blocks';
import { readImageFile } from './imageFiles';

export const PAGE_SIZES = { A4: [595.28, 841.89], Letter: [612, 792] } as const;
const MARGIN = 56;
const BODY_SIZE = 11;
const HEADING_SIZES = [22, 17, 14];
const LINE_FACTOR = 1.35;
const CELL_PAD = 4;

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  boldItalic: PDFFont;
}

export class PdfFlow {
  private page!: PDFPage;
  private y = 0;
  replaced = 0;
  pagesAdded = 0;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    private readonly size: readonly [number, number],
    private readonly at?: number,
  ) {}

  static async start(doc: PDFDocument, size: readonly [number, number], at?: number): Promise<PdfFlow> {
    const fonts = {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
      italic: await doc.embedFont(StandardFonts.HelveticaOblique),
      boldItalic: await doc.embedFont(StandardFonts.HelveticaBoldOblique),
    };
    const flow = new PdfFlow(doc, fonts, size, at);
    flow.newPage();
    return flow;
  }

  private get width(): number {
    return this.size[0] - 2 * MARGIN;
  }

  private newPage(): void {
    this.page =
      this.at === undefined
        ? this.doc.addPage([...this.size])
        : this.doc.insertPage(this.at + this.pagesAdded, [...this.size]);
    this.pagesAdded++;
    this.y = this.size[1] - MARGIN;
  }

  private ensure(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  /** Characters the font cannot encode become "?" (counted in `replaced`). */
  private encodable(text: string, font: PDFFont): string {
    const charset = new Set(font.getCharacterSet());
    let out = '';
    for (const ch of text.replace(/\t/g, '    ')) {
      if (ch === '\n' || charset.has(ch.codePointAt(0)!)) out += ch;
      else {
        out += '?';
        this.replaced++;
      }
    }
    return out;
  }

  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of this.encodable(text, font).split('\n')) {
      let line = '';
      for (const word of paragraph.split(/ +/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= width || !line) {
          line = candidate;
          // A single word wider than the line is cut where it overflows.
          while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
            let cut = line.length - 1;
            while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
            lines.push(line.slice(0, cut));
            line = line.slice(cut);
          }
        } else {
          lines.push(line);
          line = word;
        }
      }
      lines.push(line);
    }
    return lines;
  }

  private text(
    text: string,
    opts: {
      font: PDFFont;
      size: number;
      indent?: number;
      align?: 'left' | 'center' | 'right';
      color?: string;
      prefix?: string;
    },
  ): void {
    const indent = opts.indent ?? 0;
    const lineHeight = opts.size * LINE_FACTOR;
    const [r, g, b] = opts.color ? rgbOf(opts.color) : [0, 0, 0];
    this.wrap(text, opts.font, opts.size, this.width - indent).forEach((line, i) => {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      const lineWidth = opts.font.widthOfTextAtSize(line, opts.size);
      const x =
        opts.align === 'center'
          ? MARGIN + (this.width - lineWidth) / 2
          : opts.align === 'right'
            ? MARGIN + this.width - lineWidth
            : MARGIN + indent;
      if (i === 0 && opts.prefix)
        this.page.drawText(opts.prefix, {
          x: MARGIN + indent - 14,
          y: this.y,
          size: opts.size,
          font: this.fonts.regular,
        });
      this.page.drawText(line, { x, y: this.y, size: opts.size, font: opts.font, color: rgb(r, g, b) });
    });
  }

  async add(block: Block): Promise<void> {
    switch (block.type) {
      case 'heading': {
        const size = HEADING_SIZES[block.level - 1];
        this.ensure(size * 2.5);
        this.y -= size * 0.5;
        this.text(block.text, { font: this.fonts.bold, size });
        this.y -= size * 0.3;
        return;
      }
      case 'paragraph': {
        const font =
          block.bold && block.italic
            ? this.fonts.boldItalic
            : block.bold
              ? this.fonts.bold
              : block.italic
                ? this.fonts.italic
                : this.fonts.regular;
        this.text(block.text, { font, size: block.size ?? BODY_SIZE, align: block.align, color: block.color });
        this.y -= BODY_SIZE * 0.6;
        return;
      }
      case 'bullets':
        block.items.forEach((item, i) =>
          this.text(item, {
            font: this.fonts.regular,
            size: BODY_SIZE,
            indent: 18,
            prefix: block.ordered ? `${i + 1}.` : '•',
          }),
        );
        this.y -= BODY_SIZE * 0.6;
        return;
      case 'table':
        this.table(block.rows, block.header);
        this.y -= BODY_SIZE * 0.8;
        return;
      case 'image':
        await this.image(block.path, block.width);
        return;
      case 'page_break':
        this.newPage();
        return;
    }
  }

  private table(rows: string[][], header: boolean): void {
    const columns = Math.max(...rows.map((r) => r.length));
    const columnWidth = this.width / columns;
    const lineHeight = BODY_SIZE * LINE_FACTOR;
    rows.forEach((row, r) => {
      const font = header && r === 0 ? this.fonts.bold : this.fonts.regular;
      const cells = Array.from({ length: columns }, (_, c) =>
        this.wrap(row[c] ?? '', font, BODY_SIZE, columnWidth - 2 * CELL_PAD),
      );
      const height = Math.max(...cells.map((lines) => lines.length)) * lineHeight + 2 * CELL_PAD;
      this.ensure(height);
      const top = this.y;
      cells.forEach((lines, c) => {
        const x = MARGIN + c * columnWidth;
        this.page.drawRectangle({
          x,
          y: top - height,
          width: columnWidth,
          height,
          borderColor: rgb(0.55, 0.55, 0.55),
          borderWidth: 0.7,
          ...(header && r === 0 ? { color: rgb(0.88, 0.91, 0.95) } : {}),
        });
        lines.forEach((line, l) =>
          this.page.drawText(line, {
            x: x + CELL_PAD,
            y: top - CELL_PAD - (l + 1) * lineHeight + BODY_SIZE * 0.3,
            size: BODY_SIZE,
            font,
          }),
        );
      });
      this.y = top - height;
    });
  }

  private async image(path: string, width?: number): Promise<void> {
    const file = readImageFile(path);
    const image = file.kind === 'png' ? await this.doc.embedPng(file.bytes) : await this.doc.embedJpg(file.bytes);
    const drawWidth = Math.min(width ?? this.width, this.width);
    const drawHeight = Math.min((image.height / image.width) * drawWidth, this.size[1] - 2 * MARGIN);
    this.ensure(drawHeight);
    this.y -= drawHeight;
    this.page.drawImage(image, {
      x: MARGIN,
      y: this.y,
      width: (image.width / image.height) * drawHeight,
      height: drawHeight,
    });
    this.y -= BODY_SIZE * 0.6;
  }

  /** Writes a single line at a fixed spot (edit_pdf add_text), in PDF points from the bottom-left. */
  static async stamp(
    doc: PDFDocument,
    page: PDFPage,
    text: string,
    at: { x: number; y: number; size: number; color?: string },
  ): Promise<number> {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const flow = new PdfFlow(doc, { regular: font, bold: font, italic: font, boldItalic: font }, [
      page.getWidth(),
      page.getHeight(),
    ]);
    const [r, g, b] = at.color ? rgbOf(at.color) : [0, 0, 0];
    page.drawText(flow.encodable(text, font), {
      x: at.x,
      y: at.y,
      size: at.size,
      font,
      color: rgb(r, g, b),
      lineHeight: at.size * LINE_FACTOR,
    });
    return flow.replaced;
  }
}
