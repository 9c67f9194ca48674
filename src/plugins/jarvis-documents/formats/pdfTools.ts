// create_pdf and edit_pdf. Editing loads the document with pdf-lib and saves it with the same objects,
// so pages an operation does not name keep their content streams, fonts and images unchanged.
import { PDFDocument, degrees } from 'pdf-lib';
import { z } from 'zod';
import { blocksSchema } from '../blocks';
import {
  applyOperations,
  checkCreateTarget,
  editTargets,
  expectFormat,
  readDocument,
  resolveDocumentPath,
  writeDocument,
} from '../documentFiles';
import { PAGE_SIZES, PdfFlow } from './pdfLayout';

export const createPdfShape = {
  path: z.string().describe('Where to write the .pdf (relative to the working directory or absolute).'),
  title: z.string().optional().describe('Document title (metadata).'),
  author: z.string().optional(),
  page_size: z.enum(['A4', 'Letter']).default('A4'),
  blocks: blocksSchema,
  overwrite: z.boolean().optional().describe('Replace an existing file.'),
};

const pageList = z.array(z.number().int().min(1)).min(1).describe('1-based page numbers');

export const pdfOperationSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('add_text'),
    page: z.number().int().min(1),
    x: z.number(),
    y: z.number().describe('points from the bottom edge'),
    text: z.string(),
    size: z.number().min(4).max(96).default(12),
    color: z.string().optional(),
  }),
  z.object({
    op: z.literal('append_pages'),
    blocks: blocksSchema,
    after_page: z.number().int().min(0).optional().describe('default: at the end'),
  }),
  z.object({ op: z.literal('delete_pages'), pages: pageList }),
  z.object({
    op: z.literal('rotate_pages'),
    pages: pageList,
    degrees: z.union([z.literal(90), z.literal(180), z.literal(270), z.literal(0)]),
  }),
  z.object({
    op: z.literal('insert_pdf'),
    from: z.string().describe('another PDF whose pages are copied in'),
    pages: pageList.optional(),
    after_page: z.number().int().min(0).optional(),
  }),
  z.object({
    op: z.literal('set_metadata'),
    title: z.string().optional(),
    author: z.string().optional(),
    subject: z.string().optional(),
    keywords: z.array(z.string()).optional(),
  }),
]);

export const editPdfShape = {
  path: z.string().describe('The .pdf to edit.'),
  operations: z
    .array(pdfOperationSchema)
    .min(1)
    .describe('Applied in order; page numbers refer to the document as it is at that step.'),
  output: z.string().optional().describe('Write the result here instead of replacing the file.'),
};

type CreateArgs = z.infer<z.ZodObject<typeof createPdfShape>>;
type EditArgs = z.infer<z.ZodObject<typeof editPdfShape>>;

function replacedNote(count: number): string {
  return count ? ` ${count} character(s) outside the standard PDF fonts' range (Latin-1) were written as "?".` : '';
}

export async function createPdf(args: CreateArgs): Promise<string> {
  const path = resolveDocumentPath(args.path);
  expectFormat(path, 'pdf');
  checkCreateTarget(path, args.overwrite);
  const doc = await PDFDocument.create();
  if (args.title) doc.setTitle(args.title);
  if (args.author) doc.setAuthor(args.author);
  doc.setCreator('Jarvis Documents');
  const flow = await PdfFlow.start(doc, PAGE_SIZES[args.page_size]);
  for (const block of args.blocks) await flow.add(block);
  writeDocument(path, await doc.save());
  return `Created ${path} (${doc.getPageCount()} page(s)).${replacedNote(flow.replaced)}`;
}

function checkPages(pages: number[], count: number): void {
  const bad = pages.filter((p) => p > count);
  if (bad.length)
    throw new Error(`Page ${bad.join(', ')} does not exist: the document has ${count} page(s) at this step.`);
}

export async function editPdf(args: EditArgs): Promise<string> {
  const { path, output } = editTargets(args, 'pdf');
  const doc = await loadPdf(readDocument(path), path);
  const done: string[] = [];
  let replaced = 0;
  await applyOperations(args.operations, async (op) => {
    switch (op.op) {
      case 'add_text': {
        checkPages([op.page], doc.getPageCount());
        replaced += await PdfFlow.stamp(doc, doc.getPage(op.page - 1), op.text, op);
        done.push(`text added on page ${op.page}`);
        break;
      }
      case 'append_pages': {
        const at = op.after_page ?? doc.getPageCount();
        if (at > doc.getPageCount()) checkPages([at], doc.getPageCount());
        const first = doc.getPageCount() ? doc.getPage(Math.max(0, at - 1)) : undefined;
        const size = first ? ([first.getWidth(), first.getHeight()] as const) : PAGE_SIZES.A4;
        const flow = await PdfFlow.start(doc, size, at);
        for (const block of op.blocks) await flow.add(block);
        replaced += flow.replaced;
        done.push(`${flow.pagesAdded} page(s) added after page ${at}`);
        break;
      }
      case 'delete_pages': {
        checkPages(op.pages, doc.getPageCount());
        if (new Set(op.pages).size >= doc.getPageCount())
          throw new Error('A PDF needs at least one page; delete fewer pages.');
        for (const page of [...new Set(op.pages)].sort((a, b) => b - a)) doc.removePage(page - 1);
        done.push(`page(s) ${op.pages.join(', ')} deleted`);
        break;
      }
      case 'rotate_pages':
        checkPages(op.pages, doc.getPageCount());
        for (const page of op.pages) doc.getPage(page - 1).setRotation(degrees(op.degrees));
        done.push(`page(s) ${op.pages.join(', ')} rotated to ${op.degrees}°`);
        break;
      case 'insert_pdf': {
        const fromPath = resolveDocumentPath(op.from);
        const source = await loadPdf(readDocument(fromPath), fromPath);
        const wanted = op.pages ?? source.getPageIndices().map((p) => p + 1);
        checkPages(wanted, source.getPageCount());
        const copies = await doc.copyPages(
          source,
          wanted.map((p) => p - 1),
        );
        const at = op.after_page ?? doc.getPageCount();
        copies.forEach((page, k) => doc.insertPage(at + k, page));
        done.push(`${copies.length} page(s) of ${fromPath} inserted after page ${at}`);
        break;
      }
      case 'set_metadata':
        if (op.title !== undefined) doc.setTitle(op.title);
        if (op.author !== undefined) doc.setAuthor(op.author);
        if (op.subject !== undefined) doc.setSubject(op.subject);
        if (op.keywords !== undefined) doc.setKeywords(op.keywords);
        done.push('metadata set');
        break;
    }
  });
  writeDocument(output, await doc.save());
  return `Saved ${output} (${doc.getPageCount()} page(s)): ${done.join('; ')}.${replacedNote(replaced)}`;
}

/** `strict` (the validator) refuses objects pdf-lib would otherwise skip with a warning. */
export async function loadPdf(bytes: Uint8Array, path: string, strict = false): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: strict });
  } catch (e) {
    const message = (e as Error).message;
    if (/encrypted/i.test(message))
      throw new Error(`${path} is encrypted; decrypt it first (e.g. qpdf --decrypt) and try again.`);
    throw new Error(`${path} is not a readable PDF: ${message}`);
  }
}
