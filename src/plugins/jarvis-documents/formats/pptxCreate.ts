// create_pptx with pptxgenjs: one slide per entry, laid out on a fixed grid (title band, then body;
// a picture beside the text when both are given).
import { z } from 'zod';
import { hexOf } from '../blocks';
import { checkCreateTarget, expectFormat, resolveDocumentPath, writeDocument } from '../documentFiles';
import { readImageFile } from './imageFiles';
import { descendantsNamed, OoxmlPackage } from './ooxmlPackage';

export const slideSchema = z.object({
  title: z.string().optional(),
  subtitle: z.string().optional().describe('a title slide: title and subtitle centred'),
  bullets: z.array(z.string()).optional(),
  text: z.string().optional().describe('a paragraph of body text'),
  table: z.array(z.array(z.string())).optional().describe('rows of cells; the first row is the header'),
  image: z.string().optional().describe('PNG or JPEG file'),
  notes: z.string().optional().describe('speaker notes'),
  background: z.string().optional().describe('"#RRGGBB"'),
});
export type SlideSpec = z.infer<typeof slideSchema>;

export const createPptxShape = {
  path: z.string().describe('Where to write the .pptx.'),
  title: z.string().optional().describe('Presentation title (metadata).'),
  layout: z.enum(['16x9', '4x3']).default('16x9'),
  slides: z.array(slideSchema).min(1),
  overwrite: z.boolean().optional(),
};
type CreateArgs = z.infer<z.ZodObject<typeof createPptxShape>>;

/**
 * pptxgenjs 4.0.1 declares a content type for a slide master per slide although it writes only one;
 * such a declaration names a part that does not exist, which the validator (rightly) reports.
 */
async function withoutDanglingOverrides(bytes: Buffer, path: string): Promise<Uint8Array> {
  const pkg = await OoxmlPackage.load(bytes, path);
  const types = await pkg.xml('[Content_Types].xml');
  for (const override of descendantsNamed(types, 'Override')) {
    if (!pkg.has((override.getAttribute('PartName') ?? '').replace(/^\//, '')))
      override.parentNode!.removeChild(override);
  }
  pkg.setXml('[Content_Types].xml', types);
  return pkg.save();
}

const WIDTHS = { '16x9': 10, '4x3': 10 };
const HEIGHTS = { '16x9': 5.625, '4x3': 7.5 };

export async function createPptx(args: CreateArgs): Promise<string> {
  const path = resolveDocumentPath(args.path);
  expectFormat(path, 'pptx');
  checkCreateTarget(path, args.overwrite);
  const { default: PptxGenJS } = await import('pptxgenjs');
  const pptx = new PptxGenJS();
  pptx.layout = args.layout === '4x3' ? 'LAYOUT_4x3' : 'LAYOUT_16x9';
  if (args.title) pptx.title = args.title;
  pptx.author = 'Jarvis Documents';
  const width = WIDTHS[args.layout];
  const height = HEIGHTS[args.layout];

  for (const spec of args.slides) {
    const slide = pptx.addSlide();
    if (spec.background) slide.background = { color: hexOf(spec.background) };
    if (spec.notes) slide.addNotes(spec.notes);
    const hasBody = Boolean(spec.bullets?.length || spec.text || spec.table || spec.image);
    if (spec.subtitle !== undefined || (!hasBody && spec.title)) {
      slide.addText(spec.title ?? '', {
        x: 0.5,
        y: height * 0.3,
        w: width - 1,
        h: 1.2,
        fontSize: 36,
        bold: true,
        align: 'center',
        valign: 'middle',
      });
      if (spec.subtitle)
        slide.addText(spec.subtitle, {
          x: 0.5,
          y: height * 0.3 + 1.3,
          w: width - 1,
          h: 0.8,
          fontSize: 20,
          color: '555555',
          align: 'center',
        });
      if (!hasBody) continue;
    } else if (spec.title) {
      slide.addText(spec.title, { x: 0.5, y: 0.3, w: width - 1, h: 0.9, fontSize: 28, bold: true, valign: 'middle' });
    }
    const top = spec.title ? 1.4 : 0.5;
    const bodyHeight = height - top - 0.4;
    const textWidth = spec.image ? (width - 1.3) / 2 : width - 1;
    let y = top;
    if (spec.text) {
      const h = spec.bullets?.length ? 1 : bodyHeight;
      slide.addText(spec.text, { x: 0.5, y, w: textWidth, h, fontSize: 18, valign: 'top' });
      y += h + 0.1;
    }
    if (spec.bullets?.length) {
      slide.addText(
        spec.bullets.map((b) => ({ text: b, options: { bullet: true, breakLine: true } })),
        { x: 0.5, y, w: textWidth, h: top + bodyHeight - y, fontSize: 20, valign: 'top', paraSpaceAfter: 6 },
      );
    }
    if (spec.table) {
      const rows = spec.table.map((row, r) =>
        row.map((text) => ({ text, options: r === 0 ? { bold: true, fill: { color: 'DCE6F0' } } : {} })),
      );
      slide.addTable(rows, {
        x: 0.5,
        y,
        w: textWidth,
        fontSize: 14,
        border: { type: 'solid', pt: 1, color: '8C8C8C' },
      });
    }
    if (spec.image) {
      const image = readImageFile(spec.image);
      const boxW = spec.bullets?.length || spec.text || spec.table ? textWidth : width - 1;
      const scale = Math.min(boxW / image.width, bodyHeight / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      const x = boxW === textWidth && textWidth !== width - 1 ? width - 0.5 - boxW + (boxW - w) / 2 : (width - w) / 2;
      slide.addImage({
        data: `image/${image.kind};base64,${image.bytes.toString('base64')}`,
        x,
        y: top + (bodyHeight - h) / 2,
        w,
        h,
      });
    }
  }
  const buffer = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
  writeDocument(path, await withoutDanglingOverrides(buffer, path));
  return `Created ${path} (${args.slides.length} slide(s)).`;
}
