// An Office Open XML package (DOCX, XLSX, PPTX): a zip of XML parts tied together by relationships and
// [Content_Types].xml. Edits replace only the parts they change; every other entry is written back with
// the same bytes, so content a tool did not touch stays identical.
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { posix } from 'node:path';

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

/** Parses XML strictly: anything but a well-formed document throws with the parser's reason. */
export function parseXml(text: string, name: string): Document {
  try {
    return new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (e) {
    throw new Error(`${name} is not well-formed XML: ${(e as Error).message.split('\n')[0]}`);
  }
}

export function serializeXml(doc: Document): string {
  return new XMLSerializer().serializeToString(doc);
}

/** Direct children of `parent` with the given qualified name (e.g. "w:p"). */
export function childrenNamed(parent: Element | Document, name: string): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).nodeName === name) out.push(node as Element);
  }
  return out;
}

/** All descendants with the given qualified name, in document order. */
export function descendantsNamed(parent: Element | Document, name: string): Element[] {
  return Array.from(parent.getElementsByTagName(name));
}

export class OoxmlPackage {
  private constructor(
    readonly zip: JSZip,
    readonly path: string,
  ) {}

  static async load(bytes: Uint8Array, path: string): Promise<OoxmlPackage> {
    try {
      return new OoxmlPackage(await JSZip.loadAsync(bytes), path);
    } catch (e) {
      throw new Error(`${path} is not a valid zip package: ${(e as Error).message}`);
    }
  }

  names(): string[] {
    return Object.values(this.zip.files)
      .filter((f) => !f.dir)
      .map((f) => f.name);
  }

  has(name: string): boolean {
    return this.zip.file(name) !== null;
  }

  async text(name: string): Promise<string> {
    const file = this.zip.file(name);
    if (!file) throw new Error(`${this.path} has no part ${name}.`);
    return file.async('string');
  }

  async bytes(name: string): Promise<Uint8Array> {
    const file = this.zip.file(name);
    if (!file) throw new Error(`${this.path} has no part ${name}.`);
    return file.async('uint8array');
  }

  async xml(name: string): Promise<Document> {
    return parseXml(await this.text(name), `${posix.basename(this.path)}:${name}`);
  }

  setXml(name: string, doc: Document): void {
    this.zip.file(name, serializeXml(doc));
  }

  setText(name: string, text: string): void {
    this.zip.file(name, text);
  }

  remove(name: string): void {
    this.zip.remove(name);
  }

  /** The relationships of a part ("" for the package's own _rels/.rels), targets resolved to part names. */
  async relationships(part: string): Promise<Relationship[]> {
    const relsName = relsNameOf(part);
    if (!this.has(relsName)) return [];
    const doc = await this.xml(relsName);
    return descendantsNamed(doc, 'Relationship').map((r) => {
      const external = r.getAttribute('TargetMode') === 'External';
      const target = r.getAttribute('Target') ?? '';
      return {
        id: r.getAttribute('Id') ?? '',
        type: r.getAttribute('Type') ?? '',
        external,
        target: external ? target : resolveTarget(part, target),
      };
    });
  }

  async save(): Promise<Uint8Array> {
    return this.zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 } });
  }
}

export function relsNameOf(part: string): string {
  if (!part) return '_rels/.rels';
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
}

export function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return posix.normalize(posix.join(posix.dirname(fromPart), target)).replace(/^\.\//, '');
}
