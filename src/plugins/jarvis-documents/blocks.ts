// The content blocks shared by create_pdf, create_docx, edit_pdf (append_pages) and edit_docx
// (insert_blocks): the model describes content once, each format lays it out its own way.
import { z } from 'zod';

const hexColor = z.string().regex(/^#?[0-9a-fA-F]{6}$/, 'a colour like "#1F4E79"');

export const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), text: z.string(), level: z.number().int().min(1).max(3).default(1) }),
  z.object({
    type: z.literal('paragraph'),
    text: z.string(),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    align: z.enum(['left', 'center', 'right']).optional(),
    color: hexColor.optional(),
    size: z.number().min(6).max(72).optional(),
  }),
  z.object({ type: z.literal('bullets'), items: z.array(z.string()).min(1), ordered: z.boolean().optional() }),
  z.object({ type: z.literal('table'), rows: z.array(z.array(z.string())).min(1), header: z.boolean().default(true) }),
  z.object({
    type: z.literal('image'),
    path: z.string().describe('PNG or JPEG file'),
    width: z.number().positive().optional().describe('points; default: fit the text width'),
  }),
  z.object({ type: z.literal('page_break') }),
]);

export type Block = z.infer<typeof blockSchema>;

export const blocksSchema = z
  .array(blockSchema)
  .min(1)
  .describe('Content in reading order: heading, paragraph, bullets, table, image, page_break.');

export function hexOf(color: string): string {
  return color.replace(/^#/, '').toUpperCase();
}

export function rgbOf(color: string): [number, number, number] {
  const hex = hexOf(color);
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
}
