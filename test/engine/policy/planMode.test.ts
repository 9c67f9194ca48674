import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStartup } from '../../../src/engine/runtime/startup/startup';
import type { InteractionPort, PlanReviewAnswer, PlanReviewRequest } from '../../../src/engine/delegation/interactions';
import type { Agent } from '../../../src/engine/loop/loop';
import { PLAN_REMINDER_EVERY_STEPS } from '../../../src/engine/policy/planMode';
import type { PermissionMode } from '../../../src/engine/session/records';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import type { Message } from '../../../src/llm/types';
import { defineJsonSchemaTool } from '../../../src/tools/jsonSchemaTool';
import { builtinTools } from '../../../src/tools/registry';
import { makeEngine, type EngineHarness, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

type Step = ScriptedResponse | ((planPath: string) => ScriptedResponse);

function planEngine(o: { steps: Step[]; mode?: PermissionMode; planMode?: boolean; review?: PlanReviewAnswer | null }) {
  const reviews: PlanReviewRequest[] = [];
  const port: InteractionPort | undefined =
    o.review === null
      ? undefined
      : {
          reviewPlan: async (req) => {
            reviews.push(req);
            return o.review ?? { decision: 'approve' };
          },
          askQuestions: async () => ({ dismissed: true }),
        };
  const engine: EngineHarness = makeEngine({
    responses: (_req, i) => {
      const step = o.steps[i];
      if (!step) return { text: 'no more steps' };
      return typeof step === 'function' ? step(engine.runtime.plan.planPath ?? '(none)') : step;
    },
    tools: builtinTools(),
    mode: o.mode,
    planMode: o.planMode,
    answer: () => ({ decision: 'reject' }),
    interactionPort: port,
  });
  return { engine, reviews };
}

const call = (name: string, args: Record<string, unknown> = {}): ScriptedResponse => ({
  toolCalls: [{ name, arguments: args }],
});
const toolResults = (engine: EngineHarness) => engine.eventsOf('tool_result');
const textOf = (m: Message) =>
  m.role === 'user' ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';

async function run(engine: EngineHarness, text = 'plan the change') {
  engine.runtime.agent.submit({ kind: 'prompt', text });
  return engine.runtime.agent.idle();
}

describe('plan mode', () => {
  it('enter → a Write outside the plan file is refused, the plan-file write never asks → review → approve', async () => {
    const { engine, reviews } = planEngine({
      steps: [
        call('EnterPlanMode'),
        call('Write', { path: 'app.txt', content: 'code' }),
        (plan) => call('Write', { path: plan, content: '# Plan\n1. add app.txt\n' }),
        (plan) => call('Edit', { path: plan, old_string: '1. add', new_string: '1. create' }),
        call('ExitPlanMode', { options: [{ label: 'Quick', description: 'skip tests' }] }),
        { text: 'Implementing now.' },
      ],
      review: { decision: 'approve', option: 'Quick' },
    });
    await run(engine);
    const [enter, outside, planWrite, planEdit, exit] = toolResults(engine);
    const planPath = engine.runtime.plan.planPath!;
    // Deliberately moved: plan files live in the session's scratch folder (docs/sessions.md).
    expect(planPath).toBe(join(engine.runtime.session.scratchDir, 'plans', 'main', `${planPath.split('/').pop()}`));
    expect(planPath).toMatch(/\/scratch\/plans\/main\/plan-[0-9a-f]{8}\.md$/);
    expect(enter.text).toContain(`Plan file: ${planPath}`);
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain(`Plan mode is on: Write may only write the plan file ${planPath}`);
    expect(existsSync(join(engine.cwd, 'app.txt'))).toBe(false);
    expect(planWrite.isError).toBe(false);
    expect(planEdit.isError).toBe(false);
    expect(engine.approvals).toEqual([]);
    expect(readFileSync(planPath, 'utf8')).toBe('# Plan\n1. create app.txt\n');
    expect(reviews).toEqual([
      { planPath, plan: '# Plan\n1. create app.txt\n', options: [{ label: 'Quick', description: 'skip tests' }] },
    ]);
    expect(exit.text).toContain('chose the option "Quick"');
    expect(engine.runtime.session.state.planMode).toEqual({ active: false, planPath });
    expect(engine.eventsOf('plan_mode').map((e) => e.active)).toEqual([true, false]);
  });

  it('after approval the agent may write project files again (with the usual approval)', async () => {
    const { engine } = planEngine({
      planMode: true,
      steps: [
        (plan) => call('Write', { path: plan, content: 'p' }),
        call('ExitPlanMode'),
        call('Write', { path: 'app.txt', content: 'x' }),
        { text: 'ok' },
      ],
    });
    await run(engine);
    expect(engine.approvals.map((a) => a.toolName)).toEqual(['Write']);
    expect(toolResults(engine)[2].text).toContain('rejected');
  });

  it('YOLO still asks for the plan review; rejecting keeps plan mode on', async () => {
    const { engine, reviews } = planEngine({
      mode: 'yolo',
      planMode: true,
      review: { decision: 'reject' },
      steps: [(plan) => call('Write', { path: plan, content: 'the plan' }), call('ExitPlanMode'), { text: 'waiting' }],
    });
    await run(engine);
    expect(reviews).toHaveLength(1);
    expect(toolResults(engine)[1].text).toContain('rejected the plan. Plan mode stays on');
    expect(engine.runtime.plan.active).toBe(true);
  });

  it('auto mode approves the plan by itself, shown as "Auto-approved"', async () => {
    const { engine, reviews } = planEngine({
      mode: 'auto',
      planMode: true,
      steps: [
        (plan) => call('Write', { path: plan, content: 'the plan' }),
        call('ExitPlanMode'),
        { text: 'implementing' },
      ],
    });
    await run(engine);
    expect(reviews).toEqual([]);
    const exit = toolResults(engine)[1];
    expect(exit.summary).toBe('Auto-approved');
    expect(exit.text).toMatch(/was auto-approved: auto permission mode approves plans without asking anyone/);
    expect(exit.text).not.toMatch(/user/i);
    expect(engine.runtime.plan.active).toBe(false);
  });

  it.each<[string, PlanReviewAnswer, boolean, string]>([
    ['reject and exit', { decision: 'reject_and_exit' }, false, 'turned plan mode off'],
    ['revise', { decision: 'revise', feedback: 'add a rollback step' }, true, 'add a rollback step'],
  ])('%s', async (_name, review, stillOn, text) => {
    const { engine } = planEngine({
      planMode: true,
      review,
      steps: [(plan) => call('Write', { path: plan, content: 'p' }), call('ExitPlanMode'), { text: 'ok' }],
    });
    await run(engine);
    expect(engine.runtime.plan.active).toBe(stillOn);
    expect(toolResults(engine)[1].text).toContain(text);
  });

  it('without an InteractionPort (manual mode) the review is unavailable and plan mode stays on', async () => {
    const { engine } = planEngine({
      planMode: true,
      review: null,
      steps: [(plan) => call('Write', { path: plan, content: 'p' }), call('ExitPlanMode'), { text: 'ok' }],
    });
    await run(engine);
    expect(toolResults(engine)[1].isError).toBe(true);
    expect(toolResults(engine)[1].text).toContain('cannot be reviewed');
    expect(engine.runtime.plan.active).toBe(true);
  });

  it('TaskStop (an exec effect) is blocked before any approval question; Edit outside the plan is refused', async () => {
    const { engine } = planEngine({
      planMode: true,
      steps: [
        call('TaskStop', { task_id: 'b123' }),
        call('Edit', { path: 'x.txt', old_string: 'a', new_string: 'b' }),
        { text: 'ok' },
      ],
    });
    await run(engine);
    const [stop, edit] = toolResults(engine);
    expect(stop.text).toContain('TaskStop is blocked in plan mode');
    expect(edit.text).toContain('Edit may only write the plan file');
    expect(engine.approvals).toEqual([]);
    const check = engine.runtime.plan.extension.checkToolCall!;
    const agent = engine.runtime.agent as Agent;
    // By capability, not by name: any tool (built-in, MCP, plugin) that declares exec or a write elsewhere.
    const exec = [{ kind: 'exec' as const, cwd: engine.cwd }];
    expect(
      check({ toolName: 'mcp__ops__deploy', subject: 'mcp__ops__deploy', accesses: exec, args: {} }, agent),
    ).toContain('mcp__ops__deploy is blocked in plan mode');
    expect(
      check(
        {
          toolName: 'FormatCode',
          subject: 'FormatCode',
          accesses: [{ kind: 'write', path: join(engine.cwd, 'a.ts') }],
          args: {},
        },
        agent,
      ),
    ).toContain('FormatCode may only write the plan file');
    expect(
      check(
        {
          toolName: 'mcp__docs__search',
          subject: 'mcp__docs__search',
          accesses: [{ kind: 'read', path: engine.cwd }],
          args: {},
        },
        agent,
      ),
    ).toBeUndefined();
    expect(check({ toolName: 'CreateGoal', subject: 'CreateGoal', accesses: [], args: {} }, agent)).toBeUndefined();
    // Bash keeps the seed's rule: the ordinary permission rules govern it in plan mode.
    expect(check({ toolName: 'Bash', subject: 'Bash(ls)', accesses: exec, args: {} }, agent)).toBeUndefined();
    engine.runtime.plan.setPlanMode(false);
    expect(
      check({ toolName: 'mcp__ops__deploy', subject: 'mcp__ops__deploy', accesses: exec, args: {} }, agent),
    ).toBeUndefined();
  });

  it('dynamic tools are judged by what they declare: a read-only MCP tool runs, one that changes things is refused before approval', async () => {
    const lookup = await defineJsonSchemaTool({
      name: 'mcp__docs__search',
      description: 'search',
      inputSchema: { type: 'object' },
      readOnly: true,
      defaultApproval: 'auto',
      execute: async () => ({ content: 'found it' }),
    });
    const deploy = await defineJsonSchemaTool({
      name: 'mcp__ops__deploy',
      description: 'deploy',
      inputSchema: { type: 'object' },
      readOnly: false,
      defaultApproval: 'ask',
      execute: async () => ({ content: 'deployed' }),
    });
    const { engine } = planEngine({
      planMode: true,
      steps: [call('mcp__docs__search'), call('mcp__ops__deploy'), { text: 'ok' }],
    });
    engine.runtime.tools.setSource({ id: 'mcp:docs', kind: 'mcp' }, [lookup, deploy]);
    await run(engine);
    const [search, blocked] = toolResults(engine);
    expect(search).toMatchObject({ isError: false, text: 'found it' });
    expect(blocked.isError).toBe(true);
    expect(blocked.text).toContain('mcp__ops__deploy is blocked in plan mode');
    expect(engine.approvals).toEqual([]);
  });

  it('toggling plan mode does not create an empty plan file; the UI API toggles and clears', async () => {
    const { engine } = planEngine({ steps: [] });
    const plan = engine.runtime.plan;
    expect(plan.togglePlanMode()).toBe(true);
    const first = plan.planPath!;
    expect(existsSync(first)).toBe(false);
    expect(plan.togglePlanMode()).toBe(false);
    plan.setPlanMode(true);
    expect(plan.planPath).toBe(first);
    expect(existsSync(first)).toBe(false);
    mkdirSync(join(first, '..'), { recursive: true });
    writeFileSync(first, 'old plan');
    const second = plan.clearPlan();
    expect(second).not.toBe(first);
    expect(existsSync(first)).toBe(false);
    expect(existsSync(second)).toBe(false);
    expect(engine.runtime.session.state.sessionApprovals).toEqual(
      expect.arrayContaining([`Write(${second})`, `Edit(${second})`]),
    );
    expect(engine.eventsOf('plan_mode').map((e) => e.active)).toEqual([true, false, true, true]);
  });

  it(`reminds at the first step of a turn and every ${PLAN_REMINDER_EVERY_STEPS} steps; announces a UI switch-off`, async () => {
    // Different calls each step: the same call with the same result five times in a row would end the turn.
    const steps: Step[] = Array.from({ length: 2 * PLAN_REMINDER_EVERY_STEPS }, (_, i) =>
      call('Glob', { pattern: `*.none${i}` }),
    );
    const { engine } = planEngine({
      planMode: true,
      steps: [...steps, { text: 'plan ready' }, { text: 'ok, editing now' }],
    });
    await run(engine);
    const reminders = (i: number) =>
      engine.client.requests[i].messages
        .filter((m) => m.role === 'user' && textOf(m).includes('<system-reminder>'))
        .map(textOf);
    expect(reminders(0)).toHaveLength(1);
    expect(reminders(0)[0]).toContain(`Plan file: ${engine.runtime.plan.planPath}`);
    expect(reminders(PLAN_REMINDER_EVERY_STEPS - 1)).toHaveLength(1);
    expect(reminders(PLAN_REMINDER_EVERY_STEPS)).toHaveLength(2);
    expect(reminders(PLAN_REMINDER_EVERY_STEPS)[1]).toContain('Plan mode is still on');
    expect(reminders(2 * PLAN_REMINDER_EVERY_STEPS)).toHaveLength(3);
    engine.runtime.plan.setPlanMode(false);
    await run(engine, 'go ahead');
    const last = engine.client.requests.at(-1)!.messages.map(textOf);
    expect(last.at(-1)).toContain('The user turned plan mode off');
    expect(last.at(-2)).toBe('go ahead');
  });
});

describe('starting in plan mode', () => {
  function startupDirs(config: string) {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-plan-')));
    const home = join(root, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'config.toml'), config);
    const env = {
      JARVIS_CODE_HOME: home,
      JARVIS_MODEL_NAME: 'm',
      JARVIS_MODEL_API_KEY: 'k',
      JARVIS_MODEL_PROVIDER_TYPE: 'openai',
      JARVIS_MODEL_BASE_URL: 'http://127.0.0.1:9',
    };
    return { env, cwd: root };
  }

  it('--plan and default_plan_mode turn it on for new interactive sessions; print mode ignores the default', () => {
    const plain = startupDirs('');
    expect(loadStartup({}, { nonInteractive: false, ...plain }).runtime.planMode).toBe(false);
    expect(loadStartup({ plan: true }, { nonInteractive: false, ...plain }).runtime.planMode).toBe(true);
    const byDefault = startupDirs('default_plan_mode = true\n');
    expect(loadStartup({}, { nonInteractive: false, ...byDefault }).runtime.planMode).toBe(true);
    expect(loadStartup({}, { nonInteractive: true, ...byDefault }).runtime.planMode).toBe(false);
  });

  it('a session opened with planMode starts in plan mode and the first request carries the workflow', async () => {
    const { engine } = planEngine({ planMode: true, steps: [{ text: 'exploring' }] });
    expect(engine.runtime.session.state.planMode.active).toBe(true);
    await run(engine);
    expect(engine.client.requests[0].messages.map(textOf).join('\n')).toContain('Plan mode is on. Plan file:');
  });
});
