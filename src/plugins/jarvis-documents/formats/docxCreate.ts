// create_docx with the docx library: real Word headings (Heading1–3 styles), numbered and bulleted
// lists through a numbering definition, bordered tables, pictures and page breaks.
import { z } from 'zod';
import { blocksSchema, hexOf, type Block } from '../blocks';
import { checkCreateTarget, expectFormat, resolveDocumentPath, writeDocument } from '../documentFiles';
import { readImageFile } from './imageFiles';

export const createDocxShape = {
  path: z.string().describe('Where to write the .docx.'),
  title: z.string().optional().describe('Document title (metadata).'),
  author: z.string().optional(),
  blocks: blocksSchema,
  overwrite: z.boolean().optional(),
};
type CreateArgs = z.infer<z.ZodObject<typeof createDocxShape>>;

const TEXT_WIDTH_PX = 602; // A4 with 2.54 cm margins at 96 dpi

export async function createDocx(args: CreateArgs): Promise<string> {
  const path = resolveDocumentPath(args.path);
  expectFormat(path, 'docx');
  checkCreateTarget(path, args.overwrite);
  const d = await import('docx');
  const alignment = { left: d.AlignmentType.LEFT, center: d.AlignmentType.CENTER, right: d.AlignmentType.RIGHT };
  const headings = [d.HeadingLevel.HEADING_1, d.HeadingLevel.HEADING_2, d.HeadingLevel.HEADING_3];
  let orderedLists = 0;

  const toChildren = (block: Block): (InstanceType<typeof d.Paragraph> | InstanceType<typeof d.Table>)[] => {
    switch (block.type) {
      case 'heading':
        return [new d.Paragraph({ text: block.text, heading: headings[block.level - 1] })];
      case 'paragraph':
        return [
          new d.Paragraph({
            alignment: block.align ? alignment[block.align] : undefined,
            children: block.text.split('\n').map(
              (line, i) =>
                new d.TextRun({
                  text: line,
                  break: i > 0 ? 1 : undefined,
                  bold: block.bold,
                  italics: block.italic,
                  color: block.color ? hexOf(block.color) : undefined,
                  size: block.size ? Math.round(block.size * 2) : undefined,
                }),
            ),
          }),
        ];
      case 'bullets': {
        // Each ordered list gets its own numbering instance, so the next list starts again at 1.
        const instance = block.ordered ? ++orderedLists : 0;
        return block.items.map(
          (item) =>
            new d.Paragraph({
              text: item,
              ...(block.ordered
                ? { numbering: { reference: 'ordered', level: 0, instance } }
                : { bullet: { level: 0 } }),
            }),
        );
      }
      case 'table':
        return [
          new d.Table({
            width: { size: 100, type: d.WidthType.PERCENTAGE },
            rows: block.rows.map(
              (row, r) =>
                new d.TableRow({
                  tableHeader: block.header && r === 0,
                  children: row.map(
                    (text) =>
                      new d.TableCell({
                        shading:
                          block.header && r === 0
                            ? { type: d.ShadingType.CLEAR, fill: 'DCE6F0', color: 'auto' }
                            : undefined,
                        children: [
                          new d.Paragraph({ children: [new d.TextRun({ text, bold: block.header && r === 0 })] }),
                        ],
                      }),
                  ),
                }),
            ),
          }),
        ];
      case 'image': {
        const image = readImageFile(block.path);
        const width = Math.min(block.width ? block.width * (96 / 72) : image.width, TEXT_WIDTH_PX);
        return [
          new d.Paragraph({
            children: [
              new d.ImageRun({
                type: image.kind === 'png' ? 'png' : 'jpg',
                data: image.bytes,
                transformation: { width, height: Math.round((image.height / image.width) * width) },
              }),
            ],
          }),
        ];
      }
      case 'page_break':
        return [new d.Paragraph({ children: [new d.PageBreak()] })];
    }
  };

  const doc = new d.Document({
    creator: args.author ?? 'Jarvis Documents',
    title: args.title,
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: [
            {
              level: 0,
              format: d.LevelFormat.DECIMAL,
              text: '%1.',
              alignment: d.AlignmentType.START,
              style: { paragraph: { indent: { left: 720, hanging: 360 } } },
            },
          ],
        },
      ],
    },
    sections: [{ children: args.blocks.flatMap(toChildren) }],
  });
  writeDocument(path, new Uint8Array(await d.Packer.toBuffer(doc)));
  return `Created ${path} (${args.blocks.length} block(s)).`;
}
