// Replaces text that may be split over several runs (Word and PowerPoint break a sentence into runs
// wherever the formatting, spell-check or revision state changes). The replacement takes the format of
// the run where the match starts; the other runs keep theirs.
import type { Element } from '@xmldom/xmldom';

/** Replaces up to `limit` matches of `find` in the text nodes (w:t or a:t) of one paragraph. */
export function replaceInRuns(nodes: Element[], find: string, replace: string, limit: number): number {
  if (!nodes.length || limit <= 0) return 0;
  const texts = nodes.map((n) => n.textContent ?? '');
  const joined = texts.join('');
  const starts: number[] = [];
  for (let at = joined.indexOf(find); at >= 0 && starts.length < limit; at = joined.indexOf(find, at + find.length))
    starts.push(at);
  // From the last match back, so earlier offsets stay valid.
  for (const start of starts.reverse()) {
    const end = start + find.length;
    let offset = 0;
    let placed = false;
    texts.forEach((text, i) => {
      const from = offset;
      const to = offset + text.length;
      offset = to;
      if (to <= start || from >= end) return;
      const before = start > from ? text.slice(0, start - from) : '';
      const after = end < to ? text.slice(end - from) : '';
      texts[i] = before + (placed ? '' : replace) + after;
      placed = true;
    });
  }
  texts.forEach((text, i) => {
    if (text === (nodes[i].textContent ?? '')) return;
    nodes[i].textContent = text;
    if (nodes[i].nodeName === 'w:t') nodes[i].setAttribute('xml:space', 'preserve');
  });
  return starts.length;
}
