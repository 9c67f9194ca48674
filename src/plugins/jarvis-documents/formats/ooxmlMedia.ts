// Adds a picture to an OOXML package: the media part, a relationship from the part that shows it, and
// a content type for its extension when the package has none yet.
import type { ImageFile } from './imageFiles';
import { descendantsNamed, OoxmlPackage, parseXml, relsNameOf } from './ooxmlPackage';

const RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

/** Returns the new relationship id. */
export async function addMediaPart(
  pkg: OoxmlPackage,
  fromPart: string,
  mediaFolder: string,
  image: ImageFile,
): Promise<string> {
  const ext = image.kind === 'png' ? 'png' : 'jpeg';
  let n = 1;
  while (pkg.has(`${mediaFolder}/jarvis-image${n}.${ext}`)) n++;
  const name = `jarvis-image${n}.${ext}`;
  pkg.zip.file(`${mediaFolder}/${name}`, image.bytes);

  const relsName = relsNameOf(fromPart);
  const rels = pkg.has(relsName)
    ? await pkg.xml(relsName)
    : parseXml(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${RELS_NS}"/>`, relsName);
  const ids = new Set(descendantsNamed(rels, 'Relationship').map((r) => r.getAttribute('Id')));
  let k = 1;
  while (ids.has(`rIdJarvis${k}`)) k++;
  const id = `rIdJarvis${k}`;
  const rel = rels.createElementNS(RELS_NS, 'Relationship');
  rel.setAttribute('Id', id);
  rel.setAttribute('Type', IMAGE_REL);
  // The target is relative to the folder of the part that refers to it.
  const depth = fromPart.split('/').length - 1;
  const fromFolder = fromPart.split('/').slice(0, depth).join('/');
  rel.setAttribute(
    'Target',
    mediaFolder.startsWith(`${fromFolder}/`)
      ? `${mediaFolder.slice(fromFolder.length + 1)}/${name}`
      : `/${mediaFolder}/${name}`,
  );
  rels.documentElement!.appendChild(rel);
  pkg.setXml(relsName, rels);

  const types = await pkg.xml('[Content_Types].xml');
  const known = descendantsNamed(types, 'Default').some((d) => d.getAttribute('Extension')?.toLowerCase() === ext);
  if (!known) {
    const entry = types.createElementNS(types.documentElement!.namespaceURI, 'Default');
    entry.setAttribute('Extension', ext);
    entry.setAttribute('ContentType', `image/${ext}`);
    types.documentElement!.insertBefore(entry, types.documentElement!.firstChild);
    pkg.setXml('[Content_Types].xml', types);
  }
  return id;
}
