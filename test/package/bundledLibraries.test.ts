// The bundle's lazily loaded parts, loaded from dist/ and used once (docs/testing.md): a library that
// works from src/ can fail in the bundle (CommonJS interop, a missing file beside a chunk), and only a
// test of dist/ sees it. `jarvis doctor libraries` runs each library through the code the tools use;
// the bundled jarvis-documents server is driven over MCP for its own libraries.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';
import { chromiumAvailable, DocumentsServer } from '../helpers/documentsServer';
import { requireSystemPart } from '../helpers/requireAll';

const CHUNKS = resolve(__dirname, '../../dist/chunks');

function sharpInstalled(): boolean {
  try {
    createRequire(resolve(__dirname, '../../package.json')).resolve('sharp');
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return false;
    throw e;
  }
}

describe('the lazily loaded libraries of dist/', { timeout: 120_000 }, () => {
  it('every chunk of dist/chunks imports without an error', () => {
    if (!existsSync(CHUNKS))
      throw new Error(`${CHUNKS} is missing: the build failed (see the start of the test output)`);
    const chunks = readdirSync(CHUNKS).filter((name) => name.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(20);
    // A child process of its own: the chunks' module state must not leak into this test worker.
    const script = `const dir = process.argv[1]; const failed = [];
for (const name of process.argv.slice(2)) {
  try { await import(dir + '/' + name); } catch (e) { failed.push(name + ': ' + String(e && e.message).split('\\n')[0]); }
}
process.stdout.write(JSON.stringify(failed));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, CHUNKS, ...chunks], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual([]);
  });

  it("`jarvis doctor libraries` uses each one once through the tools' own code, and all work", async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['doctor', 'libraries'], { env: cliEnv(dirs), cwd: dirs.cwd, timeoutMs: 90_000 });
    const lines = r.stdout.trim().split('\n');
    const line = (name: string) => lines.find((l) => l.slice(6).startsWith(name)) ?? `(no line for ${name})`;
    for (const name of [
      'HTML extraction',
      'JSON Schema validation',
      'price dataset',
      'zip',
      'cron',
      'Bash parser',
      'JS sandbox',
      'code highlighting',
      'ripgrep',
    ]) {
      expect(line(name)).toMatch(/^ok {4}/);
    }
    expect(line('HTML extraction')).toContain('Readability');
    expect(line('images (sharp)')).toMatch(sharpInstalled() ? /^ok {4}/ : /^skip {2}images \(sharp\): .*sharp/);
    if (requireSystemPart('chromium', 'the browser check launches headless Chromium'))
      expect(line('browser')).toMatch(/^ok {4}/);
    else expect(line('browser')).toMatch(/^skip {2}browser .*no Chromium on PATH/);
    expect(lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('`jarvis doctor libraries` takes no path', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['doctor', 'libraries', 'x.toml'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('doctor libraries takes no path, got "x.toml"');
  });
});

// The cases share the documents they write (the PDF rendered last is the one made first), so their order is kept
// when the suite runs shuffled.
describe("the bundled jarvis-documents server's libraries", { timeout: 120_000, shuffle: false }, () => {
  let server: DocumentsServer;
  beforeAll(async () => {
    server = await DocumentsServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('pdf-lib, docx, exceljs, pptxgenjs and jszip each write a document that reads back', async () => {
    const blocks = [
      { type: 'heading', text: 'Probe' },
      { type: 'paragraph', text: 'One paragraph.' },
    ];
    expect(await server.ok('create_pdf', { path: 'p.pdf', blocks })).toContain('VALID PDF');
    expect(await server.ok('create_docx', { path: 'p.docx', blocks })).toContain('VALID DOCX');
    expect(
      await server.ok('create_xlsx', {
        path: 'p.xlsx',
        sheets: [
          {
            name: 'S',
            rows: [
              ['a', 1],
              ['b', '=B1*2'],
            ],
          },
        ],
      }),
    ).toContain('VALID XLSX');
    expect(
      await server.ok('create_pptx', { path: 'p.pptx', slides: [{ title: 'Probe', bullets: ['one'] }] }),
    ).toContain('VALID PPTX');
    expect(await server.ok('inspect_document', { path: 'p.docx' })).toContain('Probe');
    expect(await server.ok('inspect_document', { path: 'p.pptx' })).toContain('Probe | one');
    expect(await server.ok('inspect_document', { path: 'p.pdf' })).toContain('1 page(s)');
    expect(existsSync(join(server.dir, 'p.xlsx'))).toBe(true);
  });

  it('pdf.js renders a page in Chromium', async (ctx) => {
    if (!chromiumAvailable()) return ctx.skip();
    expect(await server.ok('render_document', { path: 'p.pdf', page: 1 })).toContain('page 1 of 1');
  });
});
