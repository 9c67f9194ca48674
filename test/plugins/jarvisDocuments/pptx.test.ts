// jarvis-documents on PPTX: create, edit (add, replace, move, delete), validate, render (text and pixels),
// and edits that keep the slides they do not touch byte for byte.
import JSZip from 'jszip';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable,
  countColour,
  countInk,
  DocumentsServer,
  readPng,
  renderedPath,
} from '../../helpers/documentsServer';

let server: DocumentsServer;
beforeAll(async () => {
  server = await DocumentsServer.start();
  const { default: sharp } = await import('sharp');
  await sharp({ create: { width: 200, height: 100, channels: 3, background: '#1060E0' } })
    .png()
    .toFile(server.path('blue.png'));
});
afterAll(async () => {
  await server.close();
});

async function slideParts(name: string): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(readFileSync(server.path(name)));
  const out = new Map<string, Buffer>();
  for (const file of Object.values(zip.files))
    if (/^ppt\/slides\/slide\d+\.xml$/.test(file.name)) out.set(file.name, await file.async('nodebuffer'));
  return out;
}

// One story on the same files (create, render, edit, break a copy): each test starts from what the one
// before left, so the order is kept even under --sequence.shuffle (the files themselves still shuffle).
describe('jarvis-documents PPTX', { timeout: 120_000, shuffle: false }, () => {
  it('creates a deck (title, bullets with picture, table, notes) that validates', async () => {
    const answer = await server.ok('create_pptx', {
      path: 'deck.pptx',
      title: 'Launch',
      slides: [
        { title: 'Launch plan', subtitle: 'Q3 review', background: '#FDF6E3' },
        {
          title: 'Highlights',
          bullets: ['Shipped on time', 'Two new markets'],
          image: 'blue.png',
          notes: 'Mention the team.',
        },
        {
          title: 'Numbers',
          table: [
            ['Market', 'Users'],
            ['PT', '1200'],
            ['BR', '5400'],
          ],
        },
      ],
    });
    expect(answer).toContain('VALID PPTX');
    expect(answer).toContain('3 slide(s)');
    const inspect = await server.ok('inspect_document', { path: 'deck.pptx' });
    expect(inspect).toMatch(/slide 2 \(ppt\/slides\/slide2\.xml\): Highlights \| Shipped on time \| Two new markets/);
  });

  it('renders slides: title, bullets, the picture and the background colour', async () => {
    if (!chromiumAvailable()) return;
    const title = await server.ok('render_document', { path: 'deck.pptx', page: 1 });
    expect(title).toContain('slide 1 of 3');
    expect(title).toContain('Launch plan');
    expect(title).toContain('Q3 review');
    const titlePng = await readPng(renderedPath(title));
    expect(titlePng.width).toBe(960);
    expect(titlePng.height).toBe(540);
    expect(countColour(titlePng, [0xfd, 0xf6, 0xe3], undefined, 3)).toBeGreaterThan(960 * 540 * 0.8);
    const highlights = await server.ok('render_document', { path: 'deck.pptx', page: 2 });
    expect(highlights).toContain('Shipped on time');
    const png = await readPng(renderedPath(highlights));
    // The picture sits on the right half; the bullets' ink on the left.
    expect(countColour(png, [0x10, 0x60, 0xe0], { x: 480, y: 0, w: 480, h: 540 }, 20)).toBeGreaterThan(20_000);
    expect(countInk(png, { x: 40, y: 120, w: 400, h: 120 })).toBeGreaterThan(300);
    const numbers = await server.ok('render_document', { path: 'deck.pptx', page: 3 });
    expect(numbers).toContain('5400');
  });

  it('edits keep untouched slides byte for byte', async () => {
    const before = await slideParts('deck.pptx');
    const answer = await server.ok('edit_pptx', {
      path: 'deck.pptx',
      operations: [
        { op: 'replace_text', slide: 3, find: '5400', replace: '5600' },
        { op: 'add_slide', title: 'Next steps', bullets: ['Hire', 'Expand'] },
        { op: 'move_slide', from: 4, to: 2 },
      ],
    });
    expect(answer).toContain('slide 4 added');
    expect(answer).toContain('VALID PPTX');
    const after = await slideParts('deck.pptx');
    expect(after.get('ppt/slides/slide1.xml')!.equals(before.get('ppt/slides/slide1.xml')!)).toBe(true);
    expect(after.get('ppt/slides/slide2.xml')!.equals(before.get('ppt/slides/slide2.xml')!)).toBe(true);
    expect(after.get('ppt/slides/slide3.xml')!.toString()).toContain('5600');
    const inspect = await server.ok('inspect_document', { path: 'deck.pptx' });
    expect(inspect).toMatch(/slide 2 \(ppt\/slides\/slide4\.xml\): Next steps \| Hire \| Expand/);
    expect(inspect).toMatch(/slide 3 \(ppt\/slides\/slide2\.xml\): Highlights/);
    if (!chromiumAvailable()) return;
    const added = await server.ok('render_document', { path: 'deck.pptx', page: 2 });
    expect(added).toContain('Next steps');
    expect(added).toContain('Expand');
    expect(countInk(await readPng(renderedPath(added)), { x: 40, y: 20, w: 500, h: 80 })).toBeGreaterThan(300);
  });

  it('deleting a slide removes its part, notes and content type; the rest stays valid', async () => {
    const before = await slideParts('deck.pptx');
    const answer = await server.ok('edit_pptx', {
      path: 'deck.pptx',
      output: 'short.pptx',
      operations: [{ op: 'delete_slides', slides: [3] }],
    });
    expect(answer).toContain('VALID PPTX');
    expect(answer).toContain('3 slide(s)');
    const zip = await JSZip.loadAsync(readFileSync(server.path('short.pptx')));
    expect(zip.file('ppt/slides/slide2.xml')).toBeNull();
    expect(await zip.file('[Content_Types].xml')!.async('string')).not.toContain('/ppt/slides/slide2.xml');
    const after = await slideParts('short.pptx');
    for (const [name, bytes] of after) expect(bytes.equals(before.get(name)!), name).toBe(true);
    const refused = await server.call('edit_pptx', {
      path: 'short.pptx',
      operations: [{ op: 'delete_slides', slides: [1, 2, 3] }],
    });
    expect(refused.text).toContain('A deck needs at least one slide');
  });

  it('the validator reports a slide list that points at a missing slide', async () => {
    const zip = await JSZip.loadAsync(readFileSync(server.path('deck.pptx')));
    zip.remove('ppt/slides/slide1.xml');
    writeFileSync(server.path('hole.pptx'), await zip.generateAsync({ type: 'nodebuffer' }));
    const report = await server.ok('validate_document', { path: 'hole.pptx' });
    expect(report).toMatch(/^INVALID PPTX/);
    expect(report).toContain('points at ppt/slides/slide1.xml, which is not in the package');
    expect(report).toContain('lists /ppt/slides/slide1.xml, which is not in the package');
  });
});
