// A tool call in the conversation (docs/web.md "Tool cards"): Bash shows its command and output, Edit and Write
// their diff, Read the file and line range; any other tool its arguments. The result (or error) sits under the call.
import { h, type Child } from '../dom';
import type { Item } from '../state/types';
import { parseBashOutput } from './bashOutput';
import { diffOfCall } from './diff';

type ToolItem = Extract<Item, { kind: 'tool' }>;
const MAX_SHOWN = 20_000;

function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n… (${text.length - MAX_SHOWN} more characters)` : text;
}

function title(t: ToolItem): Child[] {
  const a = t.args;
  if (t.name === 'Bash')
    return [h('span', { class: 'tool-name' }, 'Bash'), ' ', h('code', null, String(a.command ?? ''))];
  if (t.name === 'Read') {
    const from = typeof a.line_offset === 'number' ? a.line_offset : undefined;
    const n = typeof a.n_lines === 'number' ? a.n_lines : undefined;
    const range = from !== undefined || n !== undefined ? ` lines ${from ?? 1}${n ? `+${n}` : ''}` : '';
    return [h('span', { class: 'tool-name' }, 'Read'), ' ', h('code', null, String(a.path ?? '')), range];
  }
  const path = a.path ?? a.file_path ?? a.pattern ?? a.url ?? a.query;
  return [h('span', { class: 'tool-name' }, t.name), path !== undefined ? [' ', h('code', null, String(path))] : null];
}

function state(t: ToolItem): string {
  if (t.result === undefined) return 'running';
  if (!t.isError) return 'done';
  // A call the user refused is not a failure of the tool.
  return /^The user rejected/.test(t.result) ? 'rejected' : 'failed';
}

export function toolCard(t: ToolItem): HTMLElement {
  const diff = diffOfCall(t.name, t.args);
  const status = state(t);
  const body: Child[] = [];
  if (diff) body.push(diff);
  else if (t.name === 'AskUserQuestion' && Array.isArray(t.args.questions))
    body.push(
      h(
        'ul',
        { class: 'tool-questions' },
        (t.args.questions as Array<{ question?: unknown }>).map((q) => h('li', null, String(q.question ?? ''))),
      ),
    );
  else if (t.name !== 'Bash' && t.name !== 'Read' && Object.keys(t.args).length)
    body.push(
      h(
        'details',
        null,
        h('summary', null, 'arguments'),
        h('pre', { class: 'tool-args', tabindex: 0 }, clip(JSON.stringify(t.args, null, 2))),
      ),
    );
  const bash = t.name === 'Bash' && t.result !== undefined ? parseBashOutput(t.result) : undefined;
  if (bash) {
    if (bash.note) body.push(h('p', { class: 'tool-note' }, clip(bash.note)));
    const shown = bash.stdout || (bash.stderr ? '' : '(no output)');
    if (shown) body.push(h('pre', { class: 'tool-out', tabindex: 0, 'aria-label': 'Bash output' }, clip(shown)));
    if (bash.stderr)
      body.push(
        h('pre', { class: 'tool-out tool-err', tabindex: 0, 'aria-label': 'Bash error output' }, clip(bash.stderr)),
      );
    if (bash.exit) body.push(h('p', { class: 'tool-exit' }, `exit code ${bash.exit}`));
  } else if (t.result !== undefined) {
    const out = h(
      'pre',
      {
        class: t.isError ? 'tool-out tool-err' : 'tool-out',
        tabindex: 0,
        'aria-label': `${t.name} ${t.isError ? 'error' : 'output'}`,
      },
      clip(t.result) || '(no output)',
    );
    // Long results of reads stay folded; Bash output and errors are shown.
    body.push(t.name === 'Read' && !t.isError ? h('details', null, h('summary', null, 'file text'), out) : out);
  }
  return h(
    'article',
    { class: `tool tool-${status}`, 'data-tool': t.name, 'aria-label': `${t.name} tool call, ${status}` },
    h(
      'header',
      null,
      h('span', { class: `dot dot-${status}`, 'aria-hidden': 'true' }),
      title(t),
      h('span', { class: 'tool-state' }, status),
    ),
    body,
  );
}
