// edit_pptx: patches the presentation package. Slides an operation does not name keep their parts
// byte for byte; reordering and deleting only rewrite presentation.xml and its relationships.
import type { Document, Element } from '@xmldom/xmldom';
import { posix } from 'node:path';
import { z } from 'zod';
import { applyOperations, editTargets, readDocument, writeDocument } from '../documentFiles';
import { escapeXml } from './docxEdit';
import { descendantsNamed, OoxmlPackage, relsNameOf } from './ooxmlPackage';
import { replaceInRuns } from './textRuns';

const slideNumber = z.number().int().min(1);
export const pptxOperationSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('replace_text'),
    find: z.string().min(1),
    replace: z.string(),
    slide: slideNumber.optional().describe('only this slide; default: all'),
  }),
  z.object({
    op: z.literal('add_slide'),
    after: z.number().int().min(0).optional().describe('default: at the end'),
    title: z.string().optional(),
    bullets: z.array(z.string()).optional(),
    text: z.string().optional(),
  }),
  z.object({ op: z.literal('delete_slides'), slides: z.array(slideNumber).min(1) }),
  z.object({ op: z.literal('move_slide'), from: slideNumber, to: slideNumber }),
]);

export const editPptxShape = {
  path: z.string().describe('The .pptx to edit.'),
  operations: z
    .array(pptxOperationSchema)
    .min(1)
    .describe('Applied in order; slide numbers refer to the deck as it is at that step.'),
  output: z.string().optional().describe('Write the result here instead of replacing the file.'),
};
type EditArgs = z.infer<z.ZodObject<typeof editPptxShape>>;

const SLIDE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide';
const SLIDE_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
const EMU = 914400;

export interface DeckSlide {
  element: Element;
  relId: string;
  part: string;
}

/** The slides in presentation order, with their part names. */
export async function deckSlides(pkg: OoxmlPackage, presentation: Document): Promise<DeckSlide[]> {
  const rels = await pkg.relationships('ppt/presentation.xml');
  return descendantsNamed(presentation, 'p:sldId').map((element) => {
    const relId = element.getAttribute('r:id') ?? '';
    const rel = rels.find((r) => r.id === relId);
    if (!rel) throw new Error(`presentation.xml names slide relationship ${relId}, which does not exist.`);
    return { element, relId, part: rel.target };
  });
}

function slideXml(op: { title?: string; bullets?: string[]; text?: string }, size: { cx: number; cy: number }): string {
  const box = (id: number, name: string, y: number, h: number, paragraphs: string) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${Math.round(0.5 * EMU)}" y="${Math.round(y * EMU)}"/><a:ext cx="${size.cx - EMU}" cy="${Math.round(h * EMU)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr wrap="square"/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`;
  const para = (text: string, size100: number, extra = '') =>
    `<a:p>${extra}<a:r><a:rPr lang="en-US" sz="${size100}"${size100 >= 2800 ? ' b="1"' : ''}/><a:t>${escapeXml(text)}</a:t></a:r></a:p>`;
  const shapes: string[] = [];
  const height = size.cy / EMU;
  if (op.title) shapes.push(box(2, 'Title', 0.3, 0.9, para(op.title, 2800)));
  const bodyParas = [
    ...(op.text ? [para(op.text, 1800)] : []),
    ...(op.bullets ?? []).map((b) =>
      para(b, 2000, '<a:pPr marL="285750" indent="-285750"><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>'),
    ),
  ];
  if (bodyParas.length)
    shapes.push(box(3, 'Body', op.title ? 1.4 : 0.5, height - (op.title ? 1.8 : 0.9), bodyParas.join('')));
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes.join('')}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;
}

async function addSlide(
  pkg: OoxmlPackage,
  presentation: Document,
  op: { after?: number; title?: string; bullets?: string[]; text?: string },
): Promise<number> {
  const slides = await deckSlides(pkg, presentation);
  const after = op.after ?? slides.length;
  if (after > slides.length) throw new Error(`There is no slide ${after}; the deck has ${slides.length}.`);
  let n = 1;
  while (pkg.has(`ppt/slides/slide${n}.xml`)) n++;
  const part = `ppt/slides/slide${n}.xml`;
  const sizeEl = descendantsNamed(presentation, 'p:sldSz')[0];
  const size = { cx: Number(sizeEl?.getAttribute('cx') ?? 9144000), cy: Number(sizeEl?.getAttribute('cy') ?? 5143500) };
  pkg.setText(part, slideXml(op, size));

  // The new slide uses the layout of a neighbouring slide (or the first layout of the package).
  const neighbour = slides[Math.max(0, after - 1)];
  const layout = neighbour
    ? (await pkg.relationships(neighbour.part)).find((r) => r.type.endsWith('/slideLayout'))?.target
    : undefined;
  const layoutPart =
    layout ??
    pkg
      .names()
      .filter((name) => /^ppt\/slideLayouts\/slideLayout\d+\.xml$/.test(name))
      .sort()[0];
  if (!layoutPart) throw new Error('The deck has no slide layout to base a new slide on.');
  pkg.setText(
    relsNameOf(part),
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/${posix.basename(layoutPart)}"/></Relationships>`,
  );

  const types = await pkg.xml('[Content_Types].xml');
  const override = types.createElementNS(types.documentElement!.namespaceURI, 'Override');
  override.setAttribute('PartName', `/${part}`);
  override.setAttribute('ContentType', SLIDE_TYPE);
  types.documentElement!.appendChild(override);
  pkg.setXml('[Content_Types].xml', types);

  const relsName = relsNameOf('ppt/presentation.xml');
  const rels = await pkg.xml(relsName);
  const ids = new Set(descendantsNamed(rels, 'Relationship').map((r) => r.getAttribute('Id')));
  let k = 1;
  while (ids.has(`rIdJarvisSlide${k}`)) k++;
  const rel = rels.createElementNS(rels.documentElement!.namespaceURI, 'Relationship');
  rel.setAttribute('Id', `rIdJarvisSlide${k}`);
  rel.setAttribute('Type', SLIDE_REL);
  rel.setAttribute('Target', `slides/slide${n}.xml`);
  rels.documentElement!.appendChild(rel);
  pkg.setXml(relsName, rels);

  const list = descendantsNamed(presentation, 'p:sldIdLst')[0];
  const sldId = presentation.createElementNS(list.namespaceURI, 'p:sldId');
  const maxId = Math.max(255, ...descendantsNamed(presentation, 'p:sldId').map((s) => Number(s.getAttribute('id'))));
  sldId.setAttribute('id', String(maxId + 1));
  sldId.setAttribute('r:id', `rIdJarvisSlide${k}`);
  list.insertBefore(sldId, slides[after]?.element ?? null);
  return after + 1;
}

async function deleteSlide(pkg: OoxmlPackage, presentation: Document, slide: DeckSlide): Promise<void> {
  slide.element.parentNode!.removeChild(slide.element);
  const relsName = relsNameOf('ppt/presentation.xml');
  const rels = await pkg.xml(relsName);
  for (const r of descendantsNamed(rels, 'Relationship'))
    if (r.getAttribute('Id') === slide.relId) r.parentNode!.removeChild(r);
  pkg.setXml(relsName, rels);
  // Its speaker notes go with it; shared parts (layouts, media other slides use) stay.
  const notes = (await pkg.relationships(slide.part))
    .filter((r) => r.type.endsWith('/notesSlide'))
    .map((r) => r.target);
  const gone = [slide.part, ...notes];
  for (const part of gone) {
    pkg.remove(part);
    pkg.remove(relsNameOf(part));
  }
  const types = await pkg.xml('[Content_Types].xml');
  for (const o of descendantsNamed(types, 'Override'))
    if (gone.includes((o.getAttribute('PartName') ?? '').slice(1))) o.parentNode!.removeChild(o);
  pkg.setXml('[Content_Types].xml', types);
}

export async function editPptx(args: EditArgs): Promise<string> {
  const { path, output } = editTargets(args, 'pptx');
  const pkg = await OoxmlPackage.load(readDocument(path), path);
  const presentation = await pkg.xml('ppt/presentation.xml');
  const done: string[] = [];
  await applyOperations(args.operations, async (op) => {
    const slides = await deckSlides(pkg, presentation);
    const check = (n: number) => {
      if (n > slides.length) throw new Error(`There is no slide ${n}; the deck has ${slides.length}.`);
    };
    switch (op.op) {
      case 'replace_text': {
        if (op.slide) check(op.slide);
        let count = 0;
        for (const slide of op.slide ? [slides[op.slide - 1]] : slides) {
          const xml = await pkg.xml(slide.part);
          let here = 0;
          for (const paragraph of descendantsNamed(xml, 'a:p'))
            here += replaceInRuns(descendantsNamed(paragraph, 'a:t'), op.find, op.replace, Infinity);
          if (here) pkg.setXml(slide.part, xml);
          count += here;
        }
        if (!count)
          throw new Error(
            `"${op.find}" was not found${op.slide ? ` on slide ${op.slide}` : ''} (text is matched within one paragraph).`,
          );
        done.push(`${count} occurrence(s) of "${op.find}" replaced`);
        break;
      }
      case 'add_slide':
        done.push(`slide ${await addSlide(pkg, presentation, op)} added`);
        break;
      case 'delete_slides': {
        op.slides.forEach(check);
        if (new Set(op.slides).size >= slides.length)
          throw new Error('A deck needs at least one slide; delete fewer slides.');
        for (const n of new Set(op.slides)) await deleteSlide(pkg, presentation, slides[n - 1]);
        done.push(`slide(s) ${op.slides.join(', ')} deleted`);
        break;
      }
      case 'move_slide': {
        check(op.from);
        check(op.to);
        const moving = slides[op.from - 1].element;
        const list = moving.parentNode!;
        list.removeChild(moving);
        const rest = slides.filter((s) => s.element !== moving);
        list.insertBefore(moving, rest[op.to - 1]?.element ?? null);
        done.push(`slide ${op.from} moved to position ${op.to}`);
        break;
      }
    }
  });
  pkg.setXml('ppt/presentation.xml', presentation);
  writeDocument(output, await pkg.save());
  return `Saved ${output}: ${done.join('; ')}.`;
}
