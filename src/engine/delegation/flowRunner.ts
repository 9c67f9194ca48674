// Runs a flow skill (`/flow:<name>`, docs/skills-and-agents.md "Flow skills"): from BEGIN, each node's text is sent as
// the user's prompt of one turn, in the same conversation; at a decision the prompt lists the branches and the model
// answers with `<choice>branch</choice>` (the last one in its answer counts), asked again at most
// FLOW_CHOICE_ATTEMPTS times when it gives none that exists. The flow ends at END, or when a turn does not complete
// (cancelled, failed, blocked), or after FLOW_MAX_MOVES nodes — each said in the result. Every front end runs flows
// through this one function.
import type { Skill } from '../../ext/skills/skillFile';
import type { SkillFlow } from '../../ext/skills/skillFlow';
import type { Agent } from '../loop/loop';
import type { TurnOutcome } from '../loop/turnExtension';

/** Nodes one run of a flow may visit (a loop in the chart ends here). */
export const FLOW_MAX_MOVES = 100;
/** Answers a decision may take without a valid `<choice>` before the flow stops. */
export const FLOW_CHOICE_ATTEMPTS = 3;

export interface FlowResult {
  ok: boolean;
  /** Why the flow ended, for the user (the last turn's own text is already in the conversation). */
  message: string;
  outcomes: TurnOutcome[];
}

/** `<choice>x</choice>`: the last one of the answer, trimmed. */
export function parseChoice(text: string): string | undefined {
  const all = [...text.matchAll(/<choice>([^<]*)<\/choice>/g)];
  return all.length ? all[all.length - 1][1].trim() : undefined;
}

function decisionPrompt(text: string, labels: readonly string[]): string {
  return [
    text,
    '',
    'Available branches:',
    ...labels.map((l) => `- ${l}`),
    '',
    'Reply with a choice using <choice>...</choice>.',
  ].join('\n');
}

export async function runFlow(
  agent: Pick<Agent, 'run'>,
  name: string,
  flow: SkillFlow,
  opts: { signal?: AbortSignal } = {},
): Promise<FlowResult> {
  const outcomes: TurnOutcome[] = [];
  let at = flow.edges.get(flow.begin)![0].to;
  for (let moves = 0; ; moves++) {
    const node = flow.nodes.get(at)!;
    if (node.kind === 'end') return { ok: true, message: `The flow /flow:${name} reached END.`, outcomes };
    if (moves >= FLOW_MAX_MOVES)
      return {
        ok: false,
        message: `The flow /flow:${name} stopped after ${FLOW_MAX_MOVES} steps without reaching END (at "${node.id}").`,
        outcomes,
      };
    const edges = flow.edges.get(at)!;
    const labels = edges.map((e) => e.label ?? '');
    let prompt = node.kind === 'decision' ? decisionPrompt(node.text, labels) : node.text;
    let next: string | undefined;
    for (let attempt = 1; next === undefined; attempt++) {
      const outcome = await agent.run(prompt, { ...(opts.signal ? { signal: opts.signal } : {}) });
      outcomes.push(outcome);
      if (outcome.reason !== 'completed')
        return {
          ok: false,
          message: `The flow /flow:${name} stopped at "${node.id}": the turn ${outcome.reason === 'failed' ? `failed${outcome.error ? ` (${outcome.error})` : ''}` : `ended ${outcome.reason}`}.`,
          outcomes,
        };
      if (node.kind !== 'decision') next = edges[0].to;
      else {
        const choice = parseChoice(outcome.text);
        next = edges.find((e) => e.label === choice)?.to;
        if (next === undefined && attempt >= FLOW_CHOICE_ATTEMPTS)
          return {
            ok: false,
            message: `The flow /flow:${name} stopped at "${node.id}": ${attempt} answers gave no branch of ${labels.join(', ')}.`,
            outcomes,
          };
        prompt = `${decisionPrompt(node.text, labels)}\n\nYour last answer had no valid choice. Reply with one of the branches as <choice>...</choice>.`;
      }
    }
    at = next;
  }
}

export type FlowCommand = { ok: true; skill: Skill; flow: SkillFlow } | { ok: false; message: string };

/** `/flow:<name>`: the flow skill to run; undefined for any other text. A flow takes no arguments, as in Kimi Code. */
export function parseFlowCommand(
  input: string,
  skills: { get(name: string): Skill | undefined } | undefined,
): FlowCommand | undefined {
  const m = /^\/flow:(\S+)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (!m) return undefined;
  const skill = skills?.get(m[1]);
  if (!skill) return { ok: false, message: `There is no flow skill "${m[1]}".` };
  if (skill.type !== 'flow')
    return {
      ok: false,
      message: `The skill "${skill.name}" is no flow skill (type: flow); start it with /skill:${skill.name}.`,
    };
  if (!skill.flow)
    return {
      ok: false,
      message: `The flow skill "${skill.name}" has no \`\`\`mermaid or \`\`\`d2 flowchart in ${skill.path}.`,
    };
  if (!skill.flow.ok)
    return { ok: false, message: `The flow /flow:${skill.name} cannot run: ${skill.flow.message} (${skill.path}).` };
  if (m[2]?.trim())
    return {
      ok: false,
      message: `/flow:${skill.name} takes no arguments; its steps are in ${skill.path}. Send it alone.`,
    };
  return { ok: true, skill, flow: skill.flow.flow };
}
