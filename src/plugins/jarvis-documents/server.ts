// The jarvis-documents MCP server (stdio). Built by scripts/build.mjs into one self-contained file,
// dist/plugins/jarvis-documents/bin/server.mjs: the plugin runs from its managed copy, where the CLI's
// node_modules cannot be reached. Tools and their behaviour: docs/plugins-official.md.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createDocx, createDocxShape } from './formats/docxCreate';
import { editDocx, editDocxShape } from './formats/docxEdit';
import { createPdf, createPdfShape, editPdf, editPdfShape } from './formats/pdfTools';
import { createPptx, createPptxShape } from './formats/pptxCreate';
import { editPptx, editPptxShape } from './formats/pptxEdit';
import { createXlsx, createXlsxShape, editXlsx, editXlsxShape } from './formats/xlsxTools';
import { inspectDocument } from './inspect';
import { serveStdio } from '../shared/serveStdio';
import { closeRenderer, renderDocument } from './render/render';
import { formatReport, validateDocument } from './validate';

const VERSION = '1.0.2';

type Result = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** Every tool answers with text; a failure is a tool error the model can read and act on. */
function handler<A>(run: (args: A) => Promise<string>): (args: A) => Promise<Result> {
  return async (args) => {
    try {
      return { content: [{ type: 'text', text: await run(args) }] };
    } catch (e) {
      return { content: [{ type: 'text', text: (e as Error).message }], isError: true };
    }
  };
}

/** Creating a document validates it before answering, so a broken file is never reported as done. */
async function validated(message: Promise<string>, path: string): Promise<string> {
  const text = await message;
  const report = await validateDocument(path);
  if (report.problems.length) throw new Error(`${text}\nBut the result does not validate:\n${formatReport(report)}`);
  return `${text}\n${formatReport(report)}`;
}

function createServer(): McpServer {
  const server = new McpServer({ name: 'jarvis-documents', version: VERSION });
  const writes = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  const edits = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
  const reads = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'create_pdf',
    {
      description:
        'Create a PDF. Content blocks (headings, paragraphs, lists, tables, images, page breaks) flow onto as many pages as needed. Standard fonts: Latin-1 characters only.',
      inputSchema: createPdfShape,
      annotations: writes,
    },
    handler((a) => validated(createPdf(a), a.path)),
  );
  server.registerTool(
    'edit_pdf',
    {
      description:
        'Edit a PDF. Add text at a position, append or insert laid-out pages, delete/rotate pages, insert pages of another PDF, set metadata. Untouched pages are kept as they are.',
      inputSchema: editPdfShape,
      annotations: edits,
    },
    handler((a) => validated(editPdf(a), a.output ?? a.path)),
  );
  server.registerTool(
    'create_docx',
    {
      description:
        'Create a Word .docx. Content blocks: headings (Heading 1-3 styles), paragraphs, bulleted/numbered lists, tables, images, page breaks.',
      inputSchema: createDocxShape,
      annotations: writes,
    },
    handler((a) => validated(createDocx(a), a.path)),
  );
  server.registerTool(
    'edit_docx',
    {
      description:
        'Edit a Word .docx. Replace text (also across formatting runs), insert blocks after a body element, delete body elements (numbers from inspect_document). Everything else in the file is kept.',
      inputSchema: editDocxShape,
      annotations: edits,
    },
    handler((a) => validated(editDocx(a), a.output ?? a.path)),
  );
  server.registerTool(
    'create_xlsx',
    {
      description:
        'Create an Excel .xlsx. Sheets of rows; a string starting with "=" is a formula; cells may carry bold, colours, fills, number formats.',
      inputSchema: createXlsxShape,
      annotations: writes,
    },
    handler((a) => validated(createXlsx(a), a.path)),
  );
  server.registerTool(
    'edit_xlsx',
    {
      description:
        'Edit an Excel .xlsx. Set cells (values, formulas, styles), append/insert/delete rows, add/rename/delete sheets, set column widths. Cells not named keep their values, formulas and styles.',
      inputSchema: editXlsxShape,
      annotations: edits,
    },
    handler((a) => validated(editXlsx(a), a.output ?? a.path)),
  );
  server.registerTool(
    'create_pptx',
    {
      description:
        'Create a PowerPoint .pptx. Slides with title, subtitle, bullets, text, a table, an image, speaker notes, background colour.',
      inputSchema: createPptxShape,
      annotations: writes,
    },
    handler((a) => validated(createPptx(a), a.path)),
  );
  server.registerTool(
    'edit_pptx',
    {
      description:
        'Edit a PowerPoint .pptx. Replace text (one slide or all), add a slide (title, bullets, text), delete slides, move a slide. Other slides are kept byte for byte.',
      inputSchema: editPptxShape,
      annotations: edits,
    },
    handler((a) => validated(editPptx(a), a.output ?? a.path)),
  );
  server.registerTool(
    'validate_document',
    {
      description:
        'Check a PDF/DOCX/XLSX/PPTX file. It must open and its structure be sound (zip parts, content types, relationships, well-formed XML, PDF objects and pages, sheets and formulas). Answers VALID or INVALID with the problems.',
      inputSchema: { path: z.string() },
      annotations: reads,
    },
    handler(async (a) => formatReport(await validateDocument(a.path))),
  );
  server.registerTool(
    'inspect_document',
    {
      description:
        'List what a PDF/DOCX/XLSX/PPTX holds. DOCX body elements with their numbers (for edit_docx), XLSX sheets with cells and formulas, PPTX slides with their text, PDF pages and metadata.',
      inputSchema: { path: z.string(), max_chars: z.number().int().min(200).max(100_000).default(12_000) },
      annotations: reads,
    },
    handler((a) => inspectDocument(a.path, a.max_chars)),
  );
  server.registerTool(
    'render_document',
    {
      description:
        'Render a PDF/DOCX/XLSX/PPTX page to PNG. One page (PDF, DOCX), sheet (XLSX) or slide (PPTX); returns the PNG path and the visible text. Look at the PNG with ReadMediaFile to check the layout.',
      inputSchema: {
        path: z.string(),
        page: z.number().int().min(1).default(1).describe('1-based page, sheet or slide'),
        output: z.string().optional().describe('PNG path; default: .renders/<file>.<unit>-<n>.png beside the document'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    handler(async (a) => {
      const r = await renderDocument(a);
      return `Rendered ${r.unit} ${r.number} of ${r.count} to ${r.output} (${r.width}×${r.height} px).${r.note ? ` ${r.note}` : ''}\nView it with ReadMediaFile. Visible text: ${r.text || '(none)'}`;
    }),
  );
  return server;
}

async function main(): Promise<void> {
  await serveStdio(createServer(), closeRenderer);
}

await main();
