// The flowchart of a flow skill (`type: flow`, docs/skills-and-agents.md "Flow skills"), as Kimi Code writes it: a
// ```mermaid block (`flowchart TD`, nodes `A[text]`, `B{question}`, `C([END])`, edges `-->`, `-->|label|`,
// `-- label -->`) or a ```d2 block (`A -> B`, `A: text`, `C -> D: label`, `|md … |` block labels). A node whose text is
// BEGIN or END starts or ends it; a node with several outgoing edges is a decision, each edge labelled differently.
// Its text is what the user would send at that step. Parsing is strict where running could go wrong: exactly one
// BEGIN and one END, END reachable, decision edges labelled and distinct — otherwise the skill says why at load.

export interface FlowNode {
  id: string;
  text: string;
  kind: 'begin' | 'end' | 'task' | 'decision';
}

export interface FlowEdge {
  to: string;
  label?: string;
}

export interface SkillFlow {
  nodes: Map<string, FlowNode>;
  edges: Map<string, FlowEdge[]>;
  begin: string;
}

export type FlowParse = { ok: true; flow: SkillFlow } | { ok: false; message: string };

const MERMAID_BLOCK = /^```\s*mermaid[^\n]*\n([\s\S]*?)^```/m;
const D2_BLOCK = /^```\s*d2[^\n]*\n([\s\S]*?)^```/m;

/** The flow of a flow skill's body; undefined when it has no ```mermaid or ```d2 block. */
export function parseSkillFlow(body: string): FlowParse | undefined {
  const mermaid = MERMAID_BLOCK.exec(body);
  if (mermaid) return finish(parseMermaid(mermaid[1]));
  const d2 = D2_BLOCK.exec(body);
  if (d2) return finish(parseD2(d2[1]));
  return undefined;
}

interface Graph {
  labels: Map<string, string>;
  edges: Array<{ from: string; to: string; label?: string }>;
  error?: string;
}

const NODE = /^([A-Za-z0-9_][\w-]*)\s*(\(\[|\[\[|\[\(|\(\(|\[|\(|\{\{|\{|>)?/;
const CLOSE: Record<string, string> = {
  '([': '])',
  '[[': ']]',
  '[(': ')]',
  '((': '))',
  '[': ']',
  '(': ')',
  '{{': '}}',
  '{': '}',
  '>': ']',
};

/** One node reference at the start of `s`: its id, its text if written here, and what follows. */
function mermaidNode(s: string): { id: string; text?: string; rest: string } | undefined {
  const m = NODE.exec(s);
  if (!m) return undefined;
  let rest = s.slice(m[0].length);
  if (!m[2]) return { id: m[1], rest: rest.replace(/^:::[\w-]+/, '') };
  const close = CLOSE[m[2]];
  let text: string;
  const quoted = /^\s*"((?:\\.|[^"\\])*)"\s*/.exec(rest);
  if (quoted && rest.slice(quoted[0].length).startsWith(close)) {
    text = quoted[1].replace(/\\(.)/g, '$1');
    rest = rest.slice(quoted[0].length + close.length);
  } else {
    const end = rest.indexOf(close);
    if (end < 0) return undefined;
    text = rest.slice(0, end).trim();
    rest = rest.slice(end + close.length);
  }
  return { id: m[1], text, rest: rest.replace(/^:::[\w-]+/, '') };
}

const ARROW = /^\s*(?:-->|---|==>|-\.->|--\s+([^-][^>]*?)\s+-->|==\s+([^=][^>]*?)\s+==>)\s*(?:\|([^|]*)\|)?\s*/;

function parseMermaid(text: string): Graph {
  const g: Graph = { labels: new Map(), edges: [] };
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/%%.*$/, '').trim().replace(/;$/, '');
    if (
      !line ||
      /^(flowchart|graph)\b/i.test(line) ||
      /^(classDef|class|style|linkStyle|click|subgraph|direction)\b/.test(line) ||
      line === 'end'
    )
      continue;
    let node = mermaidNode(line);
    if (!node) return { ...g, error: `line ${i + 1}: "${line}" is no node or edge` };
    if (node.text !== undefined) g.labels.set(node.id, node.text);
    let rest = node.rest;
    while (rest.trim()) {
      const arrow = ARROW.exec(rest);
      if (!arrow) return { ...g, error: `line ${i + 1}: "${rest.trim()}" is not an edge (-->, -->|label|)` };
      const next = mermaidNode(rest.slice(arrow[0].length));
      if (!next) return { ...g, error: `line ${i + 1}: an edge leads to no node` };
      if (next.text !== undefined) g.labels.set(next.id, next.text);
      const label = (arrow[3] ?? arrow[1] ?? arrow[2])?.trim();
      g.edges.push({ from: node.id, to: next.id, ...(label ? { label } : {}) });
      node = next;
      rest = next.rest;
    }
    if (!g.labels.has(node.id) && !g.edges.some((e) => e.from === node.id || e.to === node.id))
      g.labels.set(node.id, node.id);
  }
  return g;
}

function unquote(s: string): string {
  const t = s.trim();
  return /^"(.*)"$/.test(t) || /^'(.*)'$/.test(t) ? t.slice(1, -1) : t;
}

function parseD2(text: string): Graph {
  const g: Graph = { labels: new Map(), edges: [] };
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    // `a -> b -> c: label` (the label belongs to the last edge), or `a: text` / `a: |md … |`.
    const colon = line.search(/:(?![^"]*"\s*$)/);
    const head = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? undefined : line.slice(colon + 1).trim();
    if (value !== undefined && /^\|[a-z]*$/.test(value)) {
      const block: string[] = [];
      for (i++; i < lines.length && lines[i].trim() !== '|'; i++) block.push(lines[i]);
      const indent = Math.min(...block.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
      value = block
        .map((l) => l.slice(Number.isFinite(indent) ? indent : 0))
        .join('\n')
        .trim();
    }
    const ids = head.split('->').map((s) => unquote(s));
    if (ids.some((id) => !id)) return { ...g, error: `line ${i + 1}: "${line}" has an empty node` };
    if (ids.length === 1) g.labels.set(ids[0], value !== undefined ? unquote(value) : (g.labels.get(ids[0]) ?? ids[0]));
    else
      for (let k = 0; k + 1 < ids.length; k++) {
        const label = k === ids.length - 2 && value ? unquote(value) : undefined;
        g.edges.push({ from: ids[k], to: ids[k + 1], ...(label ? { label } : {}) });
      }
  }
  return g;
}

function finish(g: Graph): FlowParse {
  if (g.error) return { ok: false, message: `the flowchart cannot be read: ${g.error}` };
  const nodes = new Map<string, FlowNode>();
  const ids = new Set([...g.labels.keys(), ...g.edges.flatMap((e) => [e.from, e.to])]);
  const edges = new Map<string, FlowEdge[]>();
  for (const id of ids) {
    const text = g.labels.get(id) ?? id;
    const mark = text.trim().toUpperCase();
    const out = g.edges.filter((e) => e.from === id).map((e) => ({ to: e.to, ...(e.label ? { label: e.label } : {}) }));
    edges.set(id, out);
    nodes.set(id, {
      id,
      text,
      kind: mark === 'BEGIN' ? 'begin' : mark === 'END' ? 'end' : out.length > 1 ? 'decision' : 'task',
    });
  }
  const begins = [...nodes.values()].filter((n) => n.kind === 'begin');
  const ends = [...nodes.values()].filter((n) => n.kind === 'end');
  if (begins.length !== 1 || ends.length !== 1)
    return {
      ok: false,
      message: `a flow needs exactly one BEGIN and one END node (found ${begins.length} and ${ends.length})`,
    };
  const reached = new Set<string>();
  const queue = [begins[0].id];
  while (queue.length) {
    const id = queue.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    queue.push(...(edges.get(id) ?? []).map((e) => e.to));
  }
  if (!reached.has(ends[0].id)) return { ok: false, message: 'END cannot be reached from BEGIN' };
  for (const n of nodes.values()) {
    if (!reached.has(n.id)) continue;
    const out = edges.get(n.id) ?? [];
    if (n.kind !== 'end' && !out.length)
      return { ok: false, message: `the node "${n.id}" leads nowhere (only END may)` };
    if (out.length > 1) {
      const labels = out.map((e) => e.label);
      if (labels.some((l) => !l)) return { ok: false, message: `the decision "${n.id}" has an edge without a label` };
      if (new Set(labels).size !== labels.length)
        return { ok: false, message: `the decision "${n.id}" has two edges with one label` };
    }
  }
  return { ok: true, flow: { nodes, edges, begin: begins[0].id } };
}
