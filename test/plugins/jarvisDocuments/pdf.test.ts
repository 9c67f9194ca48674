// jarvis-documents on PDF: create, edit, validate, render (text and pixels), and an edit that keeps the
// pages it does not touch. Real files, the built server, real Chromium with pdf.js.
import { readFileSync, writeFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
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
});
afterAll(async () => {
  await server.close();
});

const BLOCKS = [
  { type: 'heading', text: 'Quarterly report', level: 1 },
  { type: 'paragraph', text: 'Revenue grew in every region. '.repeat(12) },
  { type: 'bullets', items: ['North up 12%', 'South up 7%'] },
  {
    type: 'table',
    rows: [
      ['Region', 'Revenue'],
      ['North', '120'],
      ['South', '80'],
    ],
  },
  { type: 'page_break' },
  { type: 'heading', text: 'Outlook', level: 2 },
  { type: 'paragraph', text: 'Next quarter looks steady.' },
];

async function contentOfPage(path: string, index: number): Promise<string> {
  const doc = await PDFDocument.load(readFileSync(path));
  const page = doc.getPage(index);
  return Buffer.from(page.node.Contents()!.toString()).toString('latin1') + JSON.stringify(page.getSize());
}

// One story on the same files (create, render, edit, break a copy): each test starts from what the one
// before left, so the order is kept even under --sequence.shuffle (the files themselves still shuffle).
describe('jarvis-documents PDF', { timeout: 120_000, shuffle: false }, () => {
  it('creates a PDF that validates, with text flowed onto pages', async () => {
    const answer = await server.ok('create_pdf', { path: 'report.pdf', title: 'Q3', blocks: BLOCKS });
    expect(answer).toContain('Created');
    expect(answer).toContain('VALID PDF');
    expect(answer).toContain('2 page(s)');
    const doc = await PDFDocument.load(readFileSync(server.path('report.pdf')));
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getTitle()).toBe('Q3');
  });

  it('renders a page to a PNG whose text and pixels match the content', async () => {
    if (!chromiumAvailable()) return;
    const answer = await server.ok('render_document', { path: 'report.pdf', page: 1 });
    expect(answer).toContain('page 1 of 2');
    expect(answer).toContain('Quarterly report');
    expect(answer).toContain('North up 12%');
    expect(answer).not.toContain('Outlook');
    const png = await readPng(renderedPath(answer));
    expect(png.width).toBeGreaterThan(800);
    // The heading's ink sits near the top; the table header has its light blue fill.
    expect(countInk(png, { x: 80, y: 100, w: 400, h: 60 })).toBeGreaterThan(500);
    expect(countColour(png, [224, 232, 242], undefined, 4)).toBeGreaterThan(2000);
    // The lower part of page 1 is empty paper.
    expect(countInk(png, { x: 0, y: png.height - 300, w: png.width, h: 250 })).toBe(0);
  });

  it('edits: appends pages, stamps text, deletes a page — untouched pages keep their content', async () => {
    const before = await contentOfPage(server.path('report.pdf'), 0);
    const answer = await server.ok('edit_pdf', {
      path: 'report.pdf',
      operations: [
        {
          op: 'append_pages',
          blocks: [
            { type: 'heading', text: 'Appendix', level: 1 },
            { type: 'paragraph', text: 'Raw figures.' },
          ],
        },
        { op: 'add_text', page: 2, x: 60, y: 60, text: 'DRAFT stamp', size: 20, color: '#C00000' },
        { op: 'set_metadata', author: 'Finance' },
      ],
    });
    expect(answer).toContain('1 page(s) added after page 2');
    expect(answer).toContain('VALID PDF');
    const doc = await PDFDocument.load(readFileSync(server.path('report.pdf')));
    expect(doc.getPageCount()).toBe(3);
    expect(doc.getAuthor()).toBe('Finance');
    expect(await contentOfPage(server.path('report.pdf'), 0)).toBe(before);

    await server.ok('edit_pdf', {
      path: 'report.pdf',
      output: 'short.pdf',
      operations: [{ op: 'delete_pages', pages: [2] }],
    });
    const short = await PDFDocument.load(readFileSync(server.path('short.pdf')));
    expect(short.getPageCount()).toBe(2);
    expect(await contentOfPage(server.path('short.pdf'), 0)).toBe(before);
    if (!chromiumAvailable()) return;
    const stamped = await server.ok('render_document', { path: 'report.pdf', page: 2 });
    expect(stamped).toContain('DRAFT stamp');
    expect(countColour(await readPng(renderedPath(stamped)), [192, 0, 0], undefined, 40)).toBeGreaterThan(100);
    const appendix = await server.ok('render_document', { path: 'short.pdf', page: 2 });
    expect(appendix).toContain('Appendix');
  });

  it('a failed operation writes nothing and says which step failed', async () => {
    const before = readFileSync(server.path('report.pdf'));
    const answer = await server.call('edit_pdf', {
      path: 'report.pdf',
      operations: [
        { op: 'set_metadata', title: 'X' },
        { op: 'delete_pages', pages: [9] },
      ],
    });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /operation 2 \(delete_pages\) failed: Page 9 does not exist: the document has 3 page\(s\).*Nothing was written/,
    );
    expect(readFileSync(server.path('report.pdf')).equals(before)).toBe(true);
  });

  it('the validator reports a truncated or garbage PDF', async () => {
    const bytes = readFileSync(server.path('report.pdf'));
    writeFileSync(server.path('cut.pdf'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cut = await server.ok('validate_document', { path: 'cut.pdf' });
    expect(cut).toMatch(/^INVALID PDF/);
    expect(cut).toContain('%%EOF');
    writeFileSync(server.path('junk.pdf'), 'hello, not a pdf');
    const junk = await server.ok('validate_document', { path: 'junk.pdf' });
    expect(junk).toMatch(/^INVALID PDF/);
    expect(junk).toContain('%PDF- header');
  });

  it('characters outside the standard fonts are reported, not dropped silently', async () => {
    const answer = await server.ok('create_pdf', {
      path: 'greek.pdf',
      blocks: [{ type: 'paragraph', text: 'Café αβγ' }],
    });
    expect(answer).toContain('3 character(s)');
  });
});
