// The jarvis-documents server's contract beyond the formats: tool annotations (read-only ones are marked,
// so plan mode and approvals treat them right), and specific errors for bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, DocumentsServer } from '../../helpers/documentsServer';

let server: DocumentsServer;
beforeAll(async () => {
  server = await DocumentsServer.start();
});
afterAll(async () => {
  await server.close();
});

describe('jarvis-documents server', { timeout: 120_000 }, () => {
  it('marks only validate and inspect as read-only', async () => {
    const readOnly = (await server.tools())
      .filter((t) => t.annotations?.readOnlyHint)
      .map((t) => t.name)
      .sort();
    expect(readOnly).toEqual(['inspect_document', 'validate_document']);
  });

  it('bad input gets a specific error naming what to change', async () => {
    const wrongKind = await server.call('create_pdf', { path: 'x.docx', blocks: [{ type: 'paragraph', text: 'a' }] });
    expect(wrongKind).toEqual({
      isError: true,
      text: expect.stringContaining('x.docx is a .docx file; this tool works on .pdf files.'),
    });
    const unknown = await server.call('validate_document', { path: 'notes.txt' });
    expect(unknown.text).toContain('unsupported file type ".txt"; use a .pdf, .xlsx, .docx or .pptx file.');
    const schema = await server.call('create_pdf', { path: 'a.pdf', blocks: [{ type: 'chart' }] });
    expect(schema.isError).toBe(true);
    expect(schema.text).toContain('Invalid arguments for tool create_pdf');
    expect(schema.text).toContain('blocks[0].type');
    const missingImage = await server.call('create_docx', {
      path: 'a.docx',
      blocks: [{ type: 'image', path: 'nope.png' }],
    });
    expect(missingImage.isError).toBe(true);
    expect(missingImage.text).toContain('nope.png');
  });

  it('rendering a page that does not exist, or to a non-PNG file, is refused', async () => {
    if (!chromiumAvailable()) return;
    await server.ok('create_pptx', { path: 'one.pptx', slides: [{ title: 'Only' }] });
    const beyond = await server.call('render_document', { path: 'one.pptx', page: 4 });
    expect(beyond).toEqual({ isError: true, text: 'There is no slide 4; the deck has 1.' });
    const notPng = await server.call('render_document', { path: 'one.pptx', output: 'shot.jpg' });
    expect(notPng.text).toContain('output must be a .png file');
  });
});
