// validate_document: does the file open, and is its structure sound? PDF: header, end marker, every
// object parses, every page has a size. DOCX/XLSX/PPTX: the zip opens, every XML part is well-formed,
// every part has a content type, every internal relationship points at a part that exists, the main part
// is where the package says, and the format's own index (body, sheets, slide list) resolves.
import type { DocumentFormat } from './documentFiles';
import { formatOf, readDocument, resolveDocumentPath } from './documentFiles';
import { loadPdf } from './formats/pdfTools';
import { deckSlides } from './formats/pptxEdit';
import { loadWorkbook } from './formats/xlsxTools';
import { descendantsNamed, OoxmlPackage, parseXml } from './formats/ooxmlPackage';

export interface ValidationReport {
  path: string;
  format: DocumentFormat;
  problems: string[];
  facts: string[];
}

const MAIN_PART: Record<Exclude<DocumentFormat, 'pdf'>, { part: string; type: string }> = {
  docx: {
    part: 'word/document.xml',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  },
  xlsx: { part: 'xl/workbook.xml', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml' },
  pptx: {
    part: 'ppt/presentation.xml',
    type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
  },
};

async function validatePdf(bytes: Buffer, report: ValidationReport): Promise<void> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    report.problems.push('The file does not start with the %PDF- header.');
  if (
    !bytes
      .subarray(Math.max(0, bytes.length - 1024))
      .toString('latin1')
      .includes('%%EOF')
  )
    report.problems.push('The %%EOF end marker is missing (the file may be truncated).');
  const doc = await loadPdf(bytes, report.path, true);
  const count = doc.getPageCount();
  if (!count) report.problems.push('The document has no pages.');
  doc.getPages().forEach((page, i) => {
    const { width, height } = page.getSize();
    if (!(width > 0 && height > 0)) report.problems.push(`Page ${i + 1} has no usable size (${width}×${height}).`);
  });
  report.facts.push(`${count} page(s)`, ...(doc.getTitle() ? [`title "${doc.getTitle()}"`] : []));
}

async function validatePackage(
  pkg: OoxmlPackage,
  format: Exclude<DocumentFormat, 'pdf'>,
  report: ValidationReport,
): Promise<void> {
  const names = pkg.names();
  if (!pkg.has('[Content_Types].xml')) {
    report.problems.push('[Content_Types].xml is missing.');
    return;
  }
  if (!pkg.has('_rels/.rels')) report.problems.push('_rels/.rels is missing.');
  const broken = new Set<string>();
  for (const name of names.filter((n) => /\.(xml|rels)$/i.test(n))) {
    try {
      parseXml(await pkg.text(name), name);
    } catch (e) {
      broken.add(name);
      report.problems.push((e as Error).message);
    }
  }
  if (broken.has('[Content_Types].xml')) return;
  const types = await pkg.xml('[Content_Types].xml');
  const defaults = new Map(
    descendantsNamed(types, 'Default').map((d) => [
      (d.getAttribute('Extension') ?? '').toLowerCase(),
      d.getAttribute('ContentType') ?? '',
    ]),
  );
  const overrides = new Map(
    descendantsNamed(types, 'Override').map((o) => [
      (o.getAttribute('PartName') ?? '').replace(/^\//, ''),
      o.getAttribute('ContentType') ?? '',
    ]),
  );
  for (const part of overrides.keys())
    if (!pkg.has(part)) report.problems.push(`[Content_Types].xml lists /${part}, which is not in the package.`);
  const typeOf = (name: string) => overrides.get(name) ?? defaults.get(name.split('.').pop()!.toLowerCase());
  for (const name of names)
    if (name !== '[Content_Types].xml' && !typeOf(name)) report.problems.push(`${name} has no content type.`);
  for (const relsName of names.filter((n) => n.endsWith('.rels') && !broken.has(n))) {
    const owner = relsName === '_rels/.rels' ? '' : relsName.replace(/_rels\/([^/]+)\.rels$/, '$1');
    for (const rel of await pkg.relationships(owner)) {
      if (!rel.external && !pkg.has(rel.target))
        report.problems.push(
          `${relsName}: relationship ${rel.id} points at ${rel.target}, which is not in the package.`,
        );
    }
  }
  const main = MAIN_PART[format];
  const officeDocument = (await pkg.relationships('')).find((r) => r.type.endsWith('/officeDocument'));
  if (officeDocument?.target !== main.part)
    report.problems.push(
      `The package's main document is ${officeDocument?.target ?? 'not declared'}; a .${format} needs ${main.part}.`,
    );
  else if (typeOf(main.part) !== main.type)
    report.problems.push(`${main.part} has content type ${typeOf(main.part) ?? '(none)'}; expected ${main.type}.`);
  if (broken.has(main.part) || !pkg.has(main.part)) return;

  if (format === 'docx') {
    const body = descendantsNamed(await pkg.xml(main.part), 'w:body')[0];
    if (!body) report.problems.push('word/document.xml has no w:body.');
    else
      report.facts.push(
        `${descendantsNamed(body, 'w:p').length} paragraph(s)`,
        `${descendantsNamed(body, 'w:tbl').length} table(s)`,
      );
  } else if (format === 'pptx') {
    const slides = await deckSlides(pkg, await pkg.xml(main.part));
    for (const [i, slide] of slides.entries()) {
      if (!pkg.has(slide.part)) continue; // reported with the relationships
      if (!broken.has(slide.part) && !descendantsNamed(await pkg.xml(slide.part), 'p:cSld').length)
        report.problems.push(`Slide ${i + 1} (${slide.part}) has no p:cSld.`);
    }
    report.facts.push(`${slides.length} slide(s)`);
  }
}

async function validateWorkbook(bytes: Buffer, report: ValidationReport): Promise<void> {
  const book = await loadWorkbook(bytes, report.path);
  let formulas = 0;
  let uncached = 0;
  for (const sheet of book.worksheets) {
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.formula) {
          formulas++;
          if (cell.result === undefined) uncached++;
        }
      }),
    );
  }
  report.facts.push(
    `${book.worksheets.length} sheet(s): ${book.worksheets.map((s) => `"${s.name}" ${s.actualRowCount} row(s)`).join(', ')}`,
    `${formulas} formula(s)${uncached ? ` (${uncached} without a cached result; spreadsheet programs compute them on open)` : ''}`,
  );
}

export async function validateDocument(rawPath: string): Promise<ValidationReport> {
  const path = resolveDocumentPath(rawPath);
  const format = formatOf(path);
  const bytes = readDocument(path);
  const report: ValidationReport = { path, format, problems: [], facts: [] };
  try {
    if (format === 'pdf') await validatePdf(bytes, report);
    else {
      const pkg = await OoxmlPackage.load(bytes, path);
      await validatePackage(pkg, format, report);
      if (format === 'xlsx' && !report.problems.length) await validateWorkbook(bytes, report);
    }
  } catch (e) {
    report.problems.push((e as Error).message);
  }
  return report;
}

export function formatReport(report: ValidationReport): string {
  if (!report.problems.length)
    return `VALID ${report.format.toUpperCase()}: ${report.path}\n${report.facts.map((f) => `- ${f}`).join('\n')}`;
  return `INVALID ${report.format.toUpperCase()}: ${report.path} — ${report.problems.length} problem(s):\n${report.problems.map((p) => `- ${p}`).join('\n')}`;
}
