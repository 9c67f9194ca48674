// The experimental subagent model pool (SPEC §3.5) end to end: `jarvis -p` with two mock model
// endpoints, the main model on one and the pool's `fast` model on the other. A subagent runs on the
// client of the model its call chose; an unknown alias is a tool error that lists the choices.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';

let primary: MockModelServer;
let fast: MockModelServer;
const isSubagent = (req: RecordedRequest) => JSON.stringify(req.body.messages[0]).includes('# Your role: subagent');
const taskOf = (req: RecordedRequest) => JSON.stringify(req.body.messages[1]);
const toolResults = (req: RecordedRequest) =>
  req.body.messages.filter((m: { role: string }) => m.role === 'tool').length;
const text = (req: RecordedRequest) => JSON.stringify(req.body.messages);
/** A subagent's newest prompt (its task, or the follow-up of a resume). */
const lastOf = (req: RecordedRequest) => JSON.stringify(req.body.messages.at(-1));
const agentSchema = (req: RecordedRequest) =>
  JSON.stringify(req.body.tools.find((t: { function: { name: string } }) => t.function.name === 'Agent'));

/** The id of the subagent whose answer says `did task <task>`. */
function idOf(req: RecordedRequest, task: string): string | undefined {
  const result = req.body.messages.find(
    (m: { role: string; content: unknown }) =>
      m.role === 'tool' && JSON.stringify(m.content).includes(`did task ${task}`),
  );
  return result && /agent_id: (a[0-9a-f]+)/.exec(JSON.stringify(result.content))?.[1];
}

/** The main agent (on `primary`): four Agent calls, a swarm on `fast`, a resume asking for `primary`, then a closing answer. */
function mainScript(req: RecordedRequest): ScriptedTurn {
  if (isSubagent(req)) return { text: `primary model did ${/task \w/.exec(lastOf(req))?.[0]}` };
  const step = toolResults(req);
  if (step === 0) {
    return {
      toolCalls: [
        { name: 'Agent', arguments: { description: 'on fast', prompt: 'Do task F.', model: 'fast' } },
        { name: 'Agent', arguments: { description: 'on primary', prompt: 'Do task P.', model: 'primary' } },
        { name: 'Agent', arguments: { description: 'on default', prompt: 'Do task D.' } },
        { name: 'Agent', arguments: { description: 'on huge', prompt: 'Do task H.', model: 'huge' } },
      ],
    };
  }
  if (step === 4)
    return {
      toolCalls: [
        { name: 'AgentSwarm', arguments: { prompt_template: 'Do task {{item}}.', items: ['X', 'Y'], model: 'fast' } },
      ],
    };
  // A resumed subagent keeps its own model: `model` is ignored.
  const resume = step === 5 ? idOf(req, 'F') : undefined;
  if (resume)
    return {
      toolCalls: [
        {
          name: 'Agent',
          arguments: { description: 'resume fast', prompt: 'Now do task R.', resume, model: 'primary' },
        },
      ],
    };
  return { text: 'All delegated.' };
}

beforeAll(async () => {
  primary = await startMockModelServer({ script: mainScript });
  fast = await startMockModelServer({
    script: (req) => ({ text: `fast model did ${/task \w/.exec(lastOf(req))?.[0]}` }),
  });
});
afterAll(async () => {
  await primary.close();
  await fast.close();
});

const POOL = '[secondary_model]\ndefault_model = "fast"\nmodels = { fast = "cheap and quick", primary = "" }';

function configure(home: string, pool: string): void {
  writeFileSync(
    join(home, 'config.toml'),
    [
      'default_model = "main"',
      `[providers.a]\ntype = "openai"\nbase_url = "${primary.baseUrlFor('openai')}"\napi_key = "k"`,
      `[providers.b]\ntype = "openai"\nbase_url = "${fast.baseUrlFor('openai')}"\napi_key = "k"`,
      '[models.main]\nprovider = "a"\nmodel = "main-model"\nmax_context_size = 100000',
      '[models.fast]\nprovider = "b"\nmodel = "fast-model"\nmax_context_size = 100000',
      pool,
    ].join('\n\n'),
  );
}

async function run(experiment: boolean, pool = POOL) {
  const dirs = makeCliDirs();
  configure(dirs.home, pool);
  const before = { primary: primary.requests.length, fast: fast.requests.length };
  const env = cliEnv(dirs, experiment ? { JARVIS_CODE_EXPERIMENTAL_SECONDARY_MODEL: '1' } : {});
  const r = await runJarvis(['-p', 'delegate the tasks'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
  rmSync(dirname(dirs.home), { recursive: true, force: true });
  return { ...r, onPrimary: primary.requests.slice(before.primary), onFast: fast.requests.slice(before.fast) };
}

describe('subagent model pool ([secondary_model], experimental)', () => {
  it('Agent and AgentSwarm run subagents on the chosen pool model, "primary" on the caller\'s, the default without a choice; a resumed one keeps its model; an unknown alias is an error listing the choices', async () => {
    const r = await run(true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('All delegated.');
    // Offered with the pool's choices, the default marked.
    const first = r.onPrimary.find((q) => !isSubagent(q))!;
    expect(agentSchema(first)).toContain('fast [default] (cheap and quick), primary');

    const fastTasks = r.onFast.map((q) => /task (\w)/.exec(lastOf(q))?.[1]).sort();
    expect(fastTasks).toEqual(['D', 'F', 'R', 'X', 'Y']);
    expect(r.onFast.every((q) => q.body.model === 'fast-model' && isSubagent(q))).toBe(true);
    const primarySubagents = r.onPrimary.filter(isSubagent);
    expect(primarySubagents.map(taskOf)).toEqual([expect.stringContaining('task P')]);
    expect(primarySubagents[0].body.model).toBe('main-model');

    const afterAgents = r.onPrimary.filter((q) => !isSubagent(q))[1];
    expect(text(afterAgents)).toContain('fast model did task F');
    expect(text(afterAgents)).toContain('primary model did task P');
    expect(text(afterAgents)).toContain('fast model did task D');
    expect(text(afterAgents)).toContain(
      'There is no subagent model \\"huge\\"; no subagent was started. Choose one of: fast, primary',
    );
    expect(r.onFast.concat(r.onPrimary).some((q) => taskOf(q).includes('task H'))).toBe(false);
    const final = r.onPrimary.filter((q) => !isSubagent(q)).at(-1)!;
    expect(text(final)).toContain('fast model did task R');
    const resumed = r.onFast.find((q) => text(q).includes('task R'))!;
    expect(text(resumed)).toContain('fast model did task F');
    const afterSwarm = r.onPrimary.filter((q) => !isSubagent(q))[2];
    expect(text(afterSwarm)).toContain('fast model did task X');
    expect(text(afterSwarm)).toContain('2 of 2 completed');
  });

  it('without the experiment switch there is no pool: `model` picks any configured model for one call, nothing is a default', async () => {
    const r = await run(false);
    expect(r.code, r.stderr).toBe(0);
    const first = r.onPrimary.find((q) => !isSubagent(q))!;
    // Offered from [models] (docs/skills-and-agents.md, "A model per agent"), not from the pool.
    expect(agentSchema(first)).toContain('main (main-model), fast (fast-model)');
    // F asked for fast; the swarm (X, Y) too; R resumes F and keeps its model. P and D run on the caller's.
    expect(r.onFast.map((q) => /task (\w)/.exec(lastOf(q))?.[1]).sort()).toEqual(['F', 'R', 'X', 'Y']);
    expect(
      r.onPrimary
        .filter(isSubagent)
        .map((q) => /task (\w)/.exec(lastOf(q))?.[1])
        .sort(),
    ).toEqual(['D', 'P']);
    const afterAgents = r.onPrimary.filter((q) => !isSubagent(q))[1];
    expect(text(afterAgents)).toContain('Cannot run the subagent on \\"huge\\": no configured model is \\"huge\\"');
  });

  it('force = true pins every subagent to default_model: model is not offered, and a call that gives one is refused', async () => {
    const r = await run(true, '[secondary_model]\ndefault_model = "fast"\nforce = true');
    expect(r.code, r.stderr).toBe(0);
    const mains = r.onPrimary.filter((q) => !isSubagent(q));
    expect(agentSchema(mains[0])).not.toContain('"model"');
    expect(r.onPrimary.filter(isSubagent)).toHaveLength(0);
    // Only the call without `model` ran, on the pinned model; the others (and the swarm) were refused.
    expect(r.onFast.map((q) => /task (\w)/.exec(lastOf(q))?.[1])).toEqual(['D']);
    const refusal = '[secondary_model] force = true runs every subagent on \\"fast\\"; leave model out';
    expect(text(mains[1]).split(refusal).length - 1).toBe(3);
    expect(text(mains[2])).toContain(refusal);
  });
});
