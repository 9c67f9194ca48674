// A model per agent (docs/skills-and-agents.md, "A model per agent") through the built `jarvis -p`, with two
// configured models on one loopback mock server: an agent file's `model:` — Claude Code's `haiku` / `opus` /
// `inherit` / a full id, opencode's `provider/model` — picks the model its subagent runs on (which model name
// each request carried is asserted); one that names no configured model falls back to the caller's model with
// one notice; the Agent tool's `model` picks one for a single call; the result event splits usage by model.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '../helpers/files';
import { twoModelsConfig } from '../helpers/twoModels';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';
import { startMockModelServer, type MockModelServer, type RecordedRequest } from '../helpers/mockModelServer';

let server: MockModelServer;
/** A subagent's first message is its task (custom agents have their own system prompts). */
const isSubagent = (req: RecordedRequest) => /Do task \w+/.test(JSON.stringify(req.body.messages[1]));
const taskOf = (req: RecordedRequest) => /task (\w+)/.exec(JSON.stringify(req.body.messages.at(-1)))?.[1];
const toolResults = (req: RecordedRequest) =>
  req.body.messages.filter((m: { role: string }) => m.role === 'tool').length;
const agentSchema = (req: RecordedRequest) =>
  JSON.stringify(req.body.tools.find((t: { function: { name: string } }) => t.function.name === 'Agent'));

const call = (subagent_type: string | undefined, task: string, model?: string) => ({
  name: 'Agent',
  arguments: {
    description: `task ${task}`,
    prompt: `Do task ${task}.`,
    ...(subagent_type ? { subagent_type } : {}),
    ...(model ? { model } : {}),
  },
});

beforeAll(async () => {
  server = await startMockModelServer({
    script: (req) => {
      if (isSubagent(req))
        return { text: `${req.body.model} did task ${taskOf(req)}`, usage: { input: 100, output: 10 } };
      if (toolResults(req) === 0)
        return {
          toolCalls: [
            call('scout', 'HAIKU'),
            call('deep', 'OPUS1'),
            call('deep', 'OPUS2'),
            call('pinned', 'FULLID'),
            call('oc-helper', 'OPENCODE'),
            call('inheritor', 'INHERIT'),
            call(undefined, 'PERCALL', 'fast'),
            call('scout', 'OVERRIDE', 'main'),
            call(undefined, 'BAD', 'nonesuch'),
          ],
          usage: { input: 1000, output: 50 },
        };
      return { text: 'All delegated.', usage: { input: 2000, output: 20 } };
    },
  });
});
afterAll(async () => {
  await server.close();
});

function project() {
  const dirs = makeCliDirs();
  writeFileSync(join(dirs.home, 'config.toml'), twoModelsConfig(server.baseUrlFor('openai')));
  const agent = (name: string, model: string, extra = '') =>
    `---\nname: ${name}\ndescription: The ${name} agent.\nmodel: ${model}\n${extra}---\n\nYou are ${name}.\n`;
  // Claude Code's agent files (CRLF in one, a list-valued tools field), and an opencode one.
  putFile(join(dirs.cwd, '.claude/agents/scout.md'), agent('scout', 'haiku', 'tools: [Read, Grep]\n'));
  putFile(join(dirs.cwd, '.claude/agents/deep.md'), agent('deep', 'opus').replace(/\n/g, '\r\n'));
  putFile(join(dirs.cwd, '.claude/agents/pinned.md'), agent('pinned', 'fast-model'));
  putFile(join(dirs.cwd, '.claude/agents/inheritor.md'), agent('inheritor', 'inherit', 'color: green\n'));
  putFile(join(dirs.cwd, '.opencode/agent/oc-helper.md'), agent('oc-helper', 'mock/fast-model', 'mode: subagent\n'));
  return dirs;
}

describe('a model per agent (built CLI, two configured models)', { timeout: 120_000 }, () => {
  it("each subagent runs on its file's model or the call's; an unknown one falls back once, said; usage split by model", async () => {
    const dirs = project();
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'delegate', '--output-format', 'stream-json'], {
      env: cliEnv(dirs),
      cwd: dirs.cwd,
      timeoutMs: 90_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    const ranOn = Object.fromEntries(requests.filter(isSubagent).map((q) => [taskOf(q), q.body.model]));
    expect(ranOn).toEqual({
      HAIKU: 'fast-model', // Claude Code's `haiku`, mapped by [model_aliases]
      OPUS1: 'main-model', // no configured model is `opus`: the caller's model
      OPUS2: 'main-model',
      FULLID: 'fast-model', // a configured model's full id
      OPENCODE: 'fast-model', // opencode's provider/model
      INHERIT: 'main-model',
      PERCALL: 'fast-model', // the Agent call's model, for this call only
      OVERRIDE: 'main-model', // the call's model wins over the file's
    });
    // The main agent stays on its own model; the Agent tool offers the configured models.
    const mains = requests.filter((q) => !isSubagent(q));
    expect(mains.every((q) => q.body.model === 'main-model')).toBe(true);
    expect(agentSchema(mains[0])).toContain("default: the agent's own model");
    expect(agentSchema(mains[0])).toContain('main (main-model), fast (fast-model)');
    // A model no configuration names: the call is refused, nothing started; the model is told why.
    expect(JSON.stringify(mains[1].body.messages)).toContain('Cannot run the subagent on \\"nonesuch\\"');
    expect(requests.some((q) => taskOf(q) === 'BAD')).toBe(false);
    // One notice for `opus`, though the agent ran twice.
    const notices = r.stderr.split('\n').filter((l) => l.includes('model "opus" is not used'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('agent deep');
    expect(notices[0]).toContain('[model_aliases] "opus" = "<alias>"');
    // The result splits the usage by the model each request went to.
    const result = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    expect(result.usage_by_model).toEqual({
      // The main agent's two requests and four subagents'; four subagents on fast-model.
      'main-model': {
        input_tokens: 1000 + 2000 + 4 * 100,
        output_tokens: 50 + 20 + 4 * 10,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        requests: 6,
      },
      'fast-model': {
        input_tokens: 4 * 100,
        output_tokens: 4 * 10,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        requests: 4,
      },
    });
    expect(result.usage.input_tokens).toBe(3800);
  });
});
