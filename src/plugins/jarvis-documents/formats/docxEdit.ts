// edit_docx: patches word/document.xml inside the package. Only that part (plus the relationships,
// content types and media a new picture needs) is rewritten; headers, footers, styles, numbering and
// every paragraph an operation does not touch stay as they were.
import type { Document, Element } from '@xmldom/xmldom';
import { z } from 'zod';
import { blocksSchema, hexOf, type Block } from '../blocks';
import { applyOperations, editTargets, readDocument, writeDocument } from '../documentFiles';
import { readImageFile } from './imageFiles';
import { childrenNamed, descendantsNamed, OoxmlPackage, parseXml } from './ooxmlPackage';
import { addMediaPart } from './ooxmlMedia';
import { replaceInRuns } from './textRuns';

export const docxOperationSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('replace_text'),
    find: z.string().min(1),
    replace: z.string(),
    all: z.boolean().default(true).describe('every occurrence, or only the first'),
  }),
  z.object({
    op: z.literal('insert_blocks'),
    after: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'body element number from inspect_document after which to insert; 0 = at the start; default: at the end',
      ),
    blocks: blocksSchema,
  }),
  z.object({
    op: z.literal('delete_blocks'),
    indexes: z.array(z.number().int().min(1)).min(1).describe('body element numbers from inspect_document'),
  }),
]);

export const editDocxShape = {
  path: z.string().describe('The .docx to edit.'),
  operations: z
    .array(docxOperationSchema)
    .min(1)
    .describe('Applied in order; element numbers refer to the document as it is at that step.'),
  output: z.string().optional().describe('Write the result here instead of replacing the file.'),
};
type EditArgs = z.infer<z.ZodObject<typeof editDocxShape>>;

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const NS = `xmlns:w="${W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"`;
const EMU_PER_POINT = 12700;
const TEXT_WIDTH_PT = 451;

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The body's block elements (paragraphs, tables…) in order, without the section properties. */
export function bodyElements(doc: Document): Element[] {
  const body = descendantsNamed(doc, 'w:body')[0];
  if (!body) throw new Error('word/document.xml has no w:body.');
  return Array.from(body.childNodes).filter(
    (n): n is Element => n.nodeType === 1 && (n as Element).nodeName !== 'w:sectPr',
  );
}

function run(text: string, props = ''): string {
  return text
    .split('\n')
    .map(
      (line, i) =>
        `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}${i ? '<w:br/>' : ''}<w:t xml:space="preserve">${escapeXml(line)}</w:t></w:r>`,
    )
    .join('');
}

async function blockXml(block: Block, pkg: OoxmlPackage): Promise<string> {
  switch (block.type) {
    case 'heading': {
      const size = [40, 32, 28][block.level - 1];
      return `<w:p><w:pPr><w:pStyle w:val="Heading${block.level}"/></w:pPr>${run(block.text, `<w:b/><w:sz w:val="${size}"/>`)}</w:p>`;
    }
    case 'paragraph': {
      const props = `${block.bold ? '<w:b/>' : ''}${block.italic ? '<w:i/>' : ''}${block.color ? `<w:color w:val="${hexOf(block.color)}"/>` : ''}${block.size ? `<w:sz w:val="${Math.round(block.size * 2)}"/>` : ''}`;
      const align = block.align
        ? `<w:pPr><w:jc w:val="${block.align === 'left' ? 'left' : block.align}"/></w:pPr>`
        : '';
      return `<w:p>${align}${run(block.text, props)}</w:p>`;
    }
    case 'bullets':
      return block.items
        .map(
          (item, i) =>
            `<w:p><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr>${run(`${block.ordered ? `${i + 1}.` : '•'}\t${item}`)}</w:p>`,
        )
        .join('');
    case 'table': {
      const columns = Math.max(...block.rows.map((r) => r.length));
      const border = (side: string) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="8C8C8C"/>`;
      const rows = block.rows.map((row, r) => {
        const head = block.header && r === 0;
        const cells = Array.from(
          { length: columns },
          (_, c) =>
            `<w:tc><w:tcPr><w:tcW w:w="${Math.floor(5000 / columns)}" w:type="pct"/>${head ? '<w:shd w:val="clear" w:color="auto" w:fill="DCE6F0"/>' : ''}</w:tcPr><w:p>${run(row[c] ?? '', head ? '<w:b/>' : '')}</w:p></w:tc>`,
        );
        return `<w:tr>${head ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cells.join('')}</w:tr>`;
      });
      return `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>${['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map(border).join('')}</w:tblBorders></w:tblPr><w:tblGrid>${'<w:gridCol/>'.repeat(columns)}</w:tblGrid>${rows.join('')}</w:tbl>`;
    }
    case 'image': {
      const image = readImageFile(block.path);
      const rid = await addMediaPart(pkg, 'word/document.xml', 'word/media', image);
      const widthPt = Math.min(block.width ?? image.width * 0.75, TEXT_WIDTH_PT);
      const cx = Math.round(widthPt * EMU_PER_POINT);
      const cy = Math.round((image.height / image.width) * cx);
      const id = Math.floor(Math.random() * 1e9);
      return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${id}" name="Picture ${id}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${id}" name="Picture ${id}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    }
    case 'page_break':
      return '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
  }
}

async function insertBlocks(
  doc: Document,
  pkg: OoxmlPackage,
  blocks: Block[],
  after: number | undefined,
): Promise<number> {
  const elements = bodyElements(doc);
  if (after !== undefined && after > elements.length)
    throw new Error(`There is no body element ${after}; the document has ${elements.length}.`);
  const body = descendantsNamed(doc, 'w:body')[0];
  const anchor =
    after === undefined
      ? (childrenNamed(body, 'w:sectPr')[0] ?? null)
      : (elements[after] ?? childrenNamed(body, 'w:sectPr')[0] ?? null);
  const xml = (await Promise.all(blocks.map((b) => blockXml(b, pkg)))).join('');
  const fragment = parseXml(`<w:body ${NS}>${xml}</w:body>`, 'new content').documentElement!;
  let count = 0;
  for (const node of Array.from(fragment.childNodes)) {
    body.insertBefore(doc.importNode(node, true), anchor);
    count++;
  }
  return count;
}

export async function editDocx(args: EditArgs): Promise<string> {
  const { path, output } = editTargets(args, 'docx');
  const pkg = await OoxmlPackage.load(readDocument(path), path);
  const doc = await pkg.xml('word/document.xml');
  const done: string[] = [];
  await applyOperations(args.operations, async (op) => {
    switch (op.op) {
      case 'replace_text': {
        let count = 0;
        for (const paragraph of descendantsNamed(doc, 'w:p')) {
          count += replaceInRuns(
            descendantsNamed(paragraph, 'w:t'),
            op.find,
            op.replace,
            op.all ? Infinity : 1 - count,
          );
          if (!op.all && count) break;
        }
        if (!count) throw new Error(`"${op.find}" was not found (text is matched within one paragraph).`);
        done.push(`${count} occurrence(s) of "${op.find}" replaced`);
        break;
      }
      case 'insert_blocks': {
        const count = await insertBlocks(doc, pkg, op.blocks, op.after);
        done.push(
          `${count} element(s) inserted ${op.after === undefined ? 'at the end' : `after element ${op.after}`}`,
        );
        break;
      }
      case 'delete_blocks': {
        const elements = bodyElements(doc);
        const missing = op.indexes.filter((n) => n > elements.length);
        if (missing.length)
          throw new Error(`There is no body element ${missing.join(', ')}; the document has ${elements.length}.`);
        for (const n of new Set(op.indexes)) elements[n - 1].parentNode!.removeChild(elements[n - 1]);
        done.push(`element(s) ${op.indexes.join(', ')} deleted`);
        break;
      }
    }
  });
  pkg.setXml('word/document.xml', doc);
  writeDocument(output, await pkg.save());
  return `Saved ${output}: ${done.join('; ')}.`;
}
