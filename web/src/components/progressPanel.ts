// The session's progress beside the conversation (docs/web.md "Progress"): the goal with its budget, the to-do
// list, and the subagents (an AgentSwarm's members grouped under their call) with what each does now. Hidden
// while there is nothing to show. Text only, as everywhere (dom.ts).
import { h, replaceChildren } from '../dom';
import type { Goal, LiveState, Subagent } from '../state/live';

const TODO_MARK = { done: '✓', in_progress: '◐', pending: '○' } as const;
const TODO_WORD = { done: 'done', in_progress: 'in progress', pending: 'pending' } as const;

function seconds(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

function goalView(goal: Goal): HTMLElement {
  const budget = (['turns', 'tokens', 'time_ms'] as const)
    .filter((k) => goal.budget[k] !== null)
    .map((k) =>
      `${k === 'time_ms' ? seconds(goal.used[k]) : goal.used[k]} of ${k === 'time_ms' ? seconds(goal.budget[k]) : goal.budget[k]} ${k === 'time_ms' ? '' : k}`.trim(),
    );
  return h(
    'section',
    { class: 'progress-goal', 'aria-label': 'Goal' },
    h('h2', null, 'Goal ', h('span', { class: `goal-status goal-${goal.status}` }, goal.status)),
    h('p', null, goal.objective),
    goal.completion_criterion && h('p', { class: 'muted' }, `Done when: ${goal.completion_criterion}`),
    budget.length ? h('p', { class: 'muted' }, `Budget: ${budget.join(', ')}`) : null,
    goal.reason && goal.status !== 'active' ? h('p', { class: 'muted' }, goal.reason) : null,
  );
}

function subagentRow(s: Subagent): HTMLElement {
  const state = s.status === 'running' ? 'running' : s.status.replace('_', ' ');
  return h(
    'li',
    { class: `subagent subagent-${s.status}` },
    h(
      'span',
      { class: 'subagent-head' },
      `${s.description} `,
      h(
        'span',
        { class: 'muted' },
        `(${s.agent_name}) ${state}${s.elapsed_ms !== null ? ` · ${seconds(s.elapsed_ms)}` : ''}`,
      ),
    ),
    s.activity ? h('span', { class: 'subagent-activity muted' }, `⎿ ${s.activity}`) : null,
    s.error ? h('span', { class: 'tool-err' }, s.error) : null,
  );
}

function subagentGroups(list: Subagent[]): HTMLElement[] {
  const groups = new Map<string, Subagent[]>();
  // A swarm's members under their call; Agent calls together.
  for (const s of list) {
    const key = s.via === 'AgentSwarm' ? s.parent_call_id : 'agents';
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()].map((members) => {
    const swarm = members[0].via === 'AgentSwarm';
    const done = members.filter((m) => m.status !== 'running').length;
    return h(
      'div',
      { class: 'subagent-group' },
      h(
        'h3',
        null,
        swarm ? `Swarm: ${done} of ${members.length} finished` : `Agents: ${done} of ${members.length} finished`,
      ),
      h('ul', null, members.map(subagentRow)),
    );
  });
}

export class ProgressPanel {
  readonly el = h('aside', { class: 'progress', 'aria-label': 'Progress', hidden: true });
  private shown?: LiveState;

  render(live: LiveState | undefined): void {
    if (live === this.shown) return;
    this.shown = live;
    const has = !!live && (live.todos.length > 0 || live.goal !== null || live.subagents.length > 0);
    this.el.hidden = !has;
    if (!live || !has) return replaceChildren(this.el);
    const done = live.todos.filter((t) => t.status === 'done').length;
    replaceChildren(
      this.el,
      live.goal && goalView(live.goal),
      live.todos.length > 0 &&
        h(
          'section',
          { 'aria-label': 'To-do list' },
          h('h2', null, `To-do ${done}/${live.todos.length}`),
          h(
            'ul',
            { class: 'todos' },
            live.todos.map((t) =>
              h(
                'li',
                { class: `todo todo-${t.status}`, 'aria-label': `${t.title}: ${TODO_WORD[t.status]}` },
                h('span', { class: 'todo-mark', 'aria-hidden': 'true' }, TODO_MARK[t.status]),
                ` ${t.title}`,
              ),
            ),
          ),
        ),
      live.subagents.length > 0 &&
        h(
          'section',
          { 'aria-label': 'Subagents' },
          h('h2', null, 'Subagents'),
          subagentGroups(live.subagents.slice(-20)),
        ),
    );
  }
}
