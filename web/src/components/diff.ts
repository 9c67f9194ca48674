// A line diff of what an Edit or Write would change, drawn as a table of -/+ lines (docs/web.md "Tool cards").
// Longest-common-subsequence over lines; past MAX_CELLS the middle is shown as removed then added, which is still
// exactly what changes, only less tidy.
import { h } from '../dom';

const MAX_CELLS = 250_000;
export type DiffLine = { op: ' ' | '-' | '+'; text: string };

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: DiffLine[] = a.slice(0, start).map((text) => ({ op: ' ', text }));
  const tail: DiffLine[] = a.slice(endA).map((text) => ({ op: ' ', text }));
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  let middle: DiffLine[];
  if (x.length * y.length > MAX_CELLS) {
    middle = [...x.map((text) => ({ op: '-' as const, text })), ...y.map((text) => ({ op: '+' as const, text }))];
  } else {
    const table: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    middle = [];
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        middle.push({ op: ' ', text: x[i++] });
        j++;
      } else if (j < y.length && (i >= x.length || table[i][j + 1] >= table[i + 1][j]))
        middle.push({ op: '+', text: y[j++] });
      else middle.push({ op: '-', text: x[i++] });
    }
  }
  // Unchanged runs far from a change are folded to three lines of context.
  return [...head.slice(-3), ...middle, ...tail.slice(0, 3)];
}

export function diffView(path: string, lines: DiffLine[], label: string): HTMLElement {
  const added = lines.filter((l) => l.op === '+').length;
  const removed = lines.filter((l) => l.op === '-').length;
  return h(
    'figure',
    { class: 'diff', 'aria-label': `${label} ${path}: ${added} lines added, ${removed} removed` },
    h(
      'figcaption',
      null,
      h('span', { class: 'diff-path' }, path),
      ' ',
      h('span', { class: 'diff-add' }, `+${added}`),
      ' ',
      h('span', { class: 'diff-del' }, `-${removed}`),
    ),
    h(
      'pre',
      { tabindex: 0 },
      lines.map((l) =>
        h('span', { class: l.op === '+' ? 'dl dl-add' : l.op === '-' ? 'dl dl-del' : 'dl' }, `${l.op} ${l.text}\n`),
      ),
    ),
  );
}

/** The diff a Write or Edit call's arguments describe (a Write shows its whole new text as added). */
export function diffOfCall(name: string, args: Record<string, unknown>): HTMLElement | undefined {
  const path = String(args.path ?? args.file_path ?? '');
  if (name === 'Edit' && typeof args.old_string === 'string' && typeof args.new_string === 'string')
    return diffView(path, diffLines(args.old_string, args.new_string), 'Edit');
  if (name === 'Write' && typeof args.content === 'string')
    return diffView(
      path,
      diffLines('', args.content.replace(/\n$/, '')),
      args.mode === 'append' ? 'Append to' : 'Write',
    );
  return undefined;
}
