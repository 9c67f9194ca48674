// jarvis-documents on DOCX: create, edit (text across runs, inserted blocks with a picture, deleted
// blocks), validate, render (text and pixels), and a round trip that keeps untouched paragraphs and parts.
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, countColour, DocumentsServer, readPng, renderedPath } from '../../helpers/documentsServer';

let server: DocumentsServer;
beforeAll(async () => {
  server = await DocumentsServer.start();
  const { default: sharp } = await import('sharp');
  await sharp({ create: { width: 120, height: 60, channels: 3, background: '#E01010' } })
    .png()
    .toFile(server.path('red.png'));
});
afterAll(async () => {
  await server.close();
});

async function parts(path: string): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(readFileSync(path));
  const out = new Map<string, Buffer>();
  for (const file of Object.values(zip.files)) if (!file.dir) out.set(file.name, await file.async('nodebuffer'));
  return out;
}

/** Each body paragraph and table of word/document.xml, serialized. */
function bodyXml(documentXml: string): string[] {
  const doc = new DOMParser().parseFromString(documentXml, 'text/xml');
  const body = doc.getElementsByTagName('w:body')[0];
  return Array.from(body.childNodes)
    .filter((n) => n.nodeType === 1 && n.nodeName !== 'w:sectPr')
    .map((n) => new XMLSerializer().serializeToString(n));
}

// One story on the same files (create, render, edit, break a copy): each test starts from what the one
// before left, so the order is kept even under --sequence.shuffle (the files themselves still shuffle).
describe('jarvis-documents DOCX', { timeout: 120_000, shuffle: false }, () => {
  it('creates a document with headings, lists, a table and a picture that validates', async () => {
    const answer = await server.ok('create_docx', {
      path: 'memo.docx',
      title: 'Memo',
      blocks: [
        { type: 'heading', text: 'Project memo', level: 1 },
        { type: 'paragraph', text: 'The launch moves to Friday.' },
        { type: 'bullets', items: ['Design done', 'Tests green'] },
        { type: 'bullets', items: ['First', 'Second'], ordered: true },
        {
          type: 'table',
          rows: [
            ['Owner', 'Task'],
            ['Ana', 'Docs'],
          ],
        },
        { type: 'image', path: 'red.png', width: 90 },
        { type: 'paragraph', text: 'Closing remarks.' },
      ],
    });
    expect(answer).toContain('VALID DOCX');
    const xml = (await parts(server.path('memo.docx'))).get('word/document.xml')!.toString();
    expect(xml).toContain('w:val="Heading1"');
    expect(xml).toContain('<w:numPr>');
    expect(xml).toContain('<w:tbl>');
    expect(xml).toContain('r:embed=');
  });

  it('renders page 1: the text is there and the picture and heading colour show', async () => {
    if (!chromiumAvailable()) return;
    const answer = await server.ok('render_document', { path: 'memo.docx' });
    expect(answer).toContain('page 1 of 1');
    for (const text of ['Project memo', 'The launch moves to Friday.', 'Design done', 'Ana', 'Closing remarks.'])
      expect(answer).toContain(text);
    const png = await readPng(renderedPath(answer));
    expect(png.width).toBe(794);
    expect(countColour(png, [224, 16, 16], undefined, 20)).toBeGreaterThan(3000); // the red picture
    expect(countColour(png, [31, 56, 100], undefined, 30)).toBeGreaterThan(100); // the heading's colour
    expect(countColour(png, [220, 230, 240], undefined, 4)).toBeGreaterThan(1000); // the table header fill
  });

  it('edits keep every untouched paragraph and every other part of the package', async () => {
    const before = await parts(server.path('memo.docx'));
    const oldBody = bodyXml(before.get('word/document.xml')!.toString());
    const answer = await server.ok('edit_docx', {
      path: 'memo.docx',
      operations: [
        { op: 'replace_text', find: 'Friday', replace: 'Monday' },
        {
          op: 'insert_blocks',
          after: 2,
          blocks: [
            { type: 'heading', text: 'Risks', level: 2 },
            { type: 'paragraph', text: 'Supplier delay.', bold: true },
            { type: 'page_break' },
          ],
        },
      ],
    });
    expect(answer).toContain('1 occurrence(s) of "Friday" replaced');
    expect(answer).toContain('VALID DOCX');
    const after = await parts(server.path('memo.docx'));
    for (const [name, bytes] of before)
      if (name !== 'word/document.xml') expect(after.get(name)?.equals(bytes), name).toBe(true);
    const newBody = bodyXml(after.get('word/document.xml')!.toString());
    expect(newBody).toHaveLength(oldBody.length + 3);
    // Element 2 changed (Friday → Monday); all the others are the same XML, in the same order.
    expect(newBody[0]).toBe(oldBody[0]);
    expect(newBody[1]).toBe(oldBody[1].replace('Friday', 'Monday'));
    expect(newBody.slice(5)).toEqual(oldBody.slice(2));
    expect(await server.ok('inspect_document', { path: 'memo.docx' })).toMatch(
      /\[3\] paragraph \(Heading2\): Risks\n\[4\] paragraph: Supplier delay\./,
    );
  });

  it("replaces text that Word split over several runs, keeping the first run's format", async () => {
    const zip = await JSZip.loadAsync(readFileSync(server.path('memo.docx')));
    const xml = await zip.file('word/document.xml')!.async('string');
    const split = xml.replace(
      /<w:r>(<w:rPr>[^]*?<\/w:rPr>)?<w:t xml:space="preserve">Closing remarks\.<\/w:t><\/w:r>|<w:r><w:t xml:space="preserve">Closing remarks\.<\/w:t><\/w:r>/,
      '<w:r><w:rPr><w:b/></w:rPr><w:t>Clos</w:t></w:r><w:r><w:t>ing rem</w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>arks.</w:t></w:r>',
    );
    expect(split).not.toBe(xml);
    zip.file('word/document.xml', split);
    writeFileSync(server.path('split.docx'), await zip.generateAsync({ type: 'nodebuffer' }));
    await server.ok('edit_docx', {
      path: 'split.docx',
      operations: [{ op: 'replace_text', find: 'Closing remarks', replace: 'Final words' }],
    });
    const out = await (
      await JSZip.loadAsync(readFileSync(server.path('split.docx')))
    )
      .file('word/document.xml')!
      .async('string');
    expect(out).toContain('<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Final words</w:t></w:r>');
    expect(out).toContain('<w:rPr><w:i/></w:rPr><w:t xml:space="preserve">.</w:t>');
  });

  it('inserts a picture into an existing document and deletes blocks; the second page renders', async () => {
    await server.ok('edit_docx', {
      path: 'memo.docx',
      output: 'memo2.docx',
      operations: [
        { op: 'delete_blocks', indexes: [1] },
        {
          op: 'insert_blocks',
          blocks: [
            { type: 'paragraph', text: 'Appendix picture:' },
            { type: 'image', path: 'red.png' },
          ],
        },
      ],
    });
    const report = await server.ok('validate_document', { path: 'memo2.docx' });
    expect(report).toMatch(/^VALID DOCX/);
    const memo2 = await parts(server.path('memo2.docx'));
    expect([...memo2.keys()].some((n) => n.startsWith('word/media/jarvis-image'))).toBe(true);
    if (!chromiumAvailable()) return;
    const page2 = await server.ok('render_document', { path: 'memo2.docx', page: 2 });
    expect(page2).toContain('page 2 of 2');
    expect(page2).toContain('Appendix picture:');
    expect(page2).not.toContain('Project memo');
    expect(countColour(await readPng(renderedPath(page2)), [224, 16, 16], undefined, 20)).toBeGreaterThan(3000);
  });

  it('the validator finds broken XML, a missing part and a missing content type', async () => {
    const zip = await JSZip.loadAsync(readFileSync(server.path('memo.docx')));
    zip.file(
      'word/document.xml',
      (await zip.file('word/document.xml')!.async('string')).replace('</w:body>', '</w:bod>'),
    );
    zip.remove('word/styles.xml');
    zip.file('word/extra.bin', 'x');
    writeFileSync(server.path('broken.docx'), await zip.generateAsync({ type: 'nodebuffer' }));
    const report = await server.ok('validate_document', { path: 'broken.docx' });
    expect(report).toMatch(/^INVALID DOCX/);
    expect(report).toContain('word/document.xml is not well-formed XML');
    expect(report).toContain('points at word/styles.xml, which is not in the package');
    expect(report).toContain('word/extra.bin has no content type');
    writeFileSync(server.path('plain.docx'), 'not a zip');
    expect(await server.ok('validate_document', { path: 'plain.docx' })).toContain('is not a valid zip package');
  });

  it('refuses to overwrite without being asked and names what to do', async () => {
    const answer = await server.call('create_docx', { path: 'memo.docx', blocks: [{ type: 'paragraph', text: 'x' }] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('already exists. Edit it with the matching edit tool, or pass overwrite: true');
    const missing = await server.call('edit_docx', {
      path: 'none.docx',
      operations: [{ op: 'delete_blocks', indexes: [1] }],
    });
    expect(missing.text).toContain('does not exist');
    const wrong = await server.call('edit_docx', {
      path: 'memo.docx',
      operations: [{ op: 'replace_text', find: 'zzz', replace: 'y' }],
    });
    expect(wrong.text).toMatch(/operation 1 \(replace_text\) failed: "zzz" was not found.*Nothing was written/);
  });
});
