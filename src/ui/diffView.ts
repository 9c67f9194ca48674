// Diffs for Write/Edit cards and the approval preview: a Myers line diff grouped into hunks with
// context, line numbers in a gutter, and intra-line highlights for a changed line pair.
import type { Theme } from './theme';

export type DiffOp = { kind: 'same' | 'add' | 'del'; text: string; oldNo?: number; newNo?: number };

/** Above this many lines on a side the diff is approximated (everything removed, then added). */
const MAX_DIFF_LINES = 4000;

/**
 * A text's lines. A final line break ends the last line rather than starting an empty one, so a
 * one-line file is one line (`+1 -0` when created); whether the last line has its break is not shown.
 */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffLines(before: string, after: string): DiffOp[] {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) {
    return [
      ...a.map((text, i) => ({ kind: 'del' as const, text, oldNo: i + 1 })),
      ...b.map((text, i) => ({ kind: 'add' as const, text, newNo: i + 1 })),
    ];
  }
  // Myers O(ND): keep each round's frontier to walk the path back.
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Map<number, number>([[1, 0]]);
  const trace: Array<Map<number, number>> = [];
  outer: for (let d = 0; d <= max; d++) {
    trace.push(new Map(v));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v.get(k - 1) ?? 0) < (v.get(k + 1) ?? 0))
          ? (v.get(k + 1) ?? 0)
          : (v.get(k - 1) ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v.set(k, x);
      if (x >= n && y >= m) break outer;
    }
  }
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && (vd.get(k - 1) ?? 0) < (vd.get(k + 1) ?? 0)) ? k + 1 : k - 1;
    const prevX = vd.get(prevK) ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: 'same', text: a[x - 1], oldNo: x, newNo: y });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: 'add', text: b[y - 1], newNo: y });
      else ops.push({ kind: 'del', text: a[x - 1], oldNo: x });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

export interface DiffStats {
  added: number;
  removed: number;
}

export function diffStats(ops: readonly DiffOp[]): DiffStats {
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === 'add') added++;
    else if (op.kind === 'del') removed++;
  }
  return { added, removed };
}

/** Renders hunks with `context` lines around each change. */
export function renderDiff(ops: readonly DiffOp[], theme: Theme, context = 3): string[] {
  const show = new Array<boolean>(ops.length).fill(false);
  ops.forEach((op, i) => {
    if (op.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++) show[j] = true;
  });
  const width = String(Math.max(1, ...ops.map((o) => o.newNo ?? o.oldNo ?? 0))).length;
  const lines: string[] = [];
  const { fg } = theme;
  let gap = false;
  for (let i = 0; i < ops.length; i++) {
    if (!show[i]) {
      gap = true;
      continue;
    }
    if (gap && lines.length) lines.push(fg.diffMeta(`${' '.repeat(width)} ⋮`));
    gap = false;
    const op = ops[i];
    const no = String((op.kind === 'del' ? op.oldNo : op.newNo) ?? '').padStart(width);
    if (op.kind === 'same') {
      lines.push(`${fg.diffGutter(no)}   ${fg.textDim(op.text)}`);
      continue;
    }
    const pair =
      op.kind === 'del' && ops[i + 1]?.kind === 'add' && ops[i + 2]?.kind !== 'add' && ops[i - 1]?.kind !== 'del'
        ? ops[i + 1]
        : undefined;
    if (pair) {
      const [oldText, newText] = intraLine(op.text, pair.text, theme);
      lines.push(`${fg.diffGutter(no)} ${fg.diffRemoved('-')} ${oldText}`);
      lines.push(`${fg.diffGutter(String(pair.newNo ?? '').padStart(width))} ${fg.diffAdded('+')} ${newText}`);
      i++;
      continue;
    }
    if (op.kind === 'add') lines.push(`${fg.diffGutter(no)} ${fg.diffAdded('+')} ${fg.diffAdded(op.text)}`);
    else lines.push(`${fg.diffGutter(no)} ${fg.diffRemoved('-')} ${fg.diffRemoved(op.text)}`);
  }
  return lines;
}

/** Highlights what differs between two versions of one line (the part between common prefix and suffix). */
function intraLine(before: string, after: string, theme: Theme): [string, string] {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s])
    s++;
  const { fg } = theme;
  const mark = (text: string, base: (t: string) => string, strong: (t: string) => string) =>
    base(text.slice(0, p)) + theme.bold(strong(text.slice(p, text.length - s))) + base(text.slice(text.length - s));
  return [mark(before, fg.diffRemoved, fg.diffRemovedStrong), mark(after, fg.diffAdded, fg.diffAddedStrong)];
}
