// Skills loading skills end to end (docs/skills-and-agents.md, "Skills loading skills"): the built CLI in
// print mode against the loopback mock model. Loads one after another are free; a chain of skills whose
// instructions name the next one is refused at its fourth level.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { putFile as put } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

function skill(dir: string, name: string, body: string): void {
  put(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: the ${name} skill\n---\n${body}\n`);
}

const load = (name: string) => ({ toolCalls: [{ name: 'Skill', arguments: { skill: name } }] });

async function runWith(setup: (skills: string) => void, replies: object[]) {
  const dirs = makeCliDirs();
  mkdirSync(join(dirs.cwd, '.git'));
  setup(join(dirs.cwd, '.jarvis-code', 'skills'));
  server.push(...(replies as Parameters<MockModelServer['push']>));
  const before = server.requests.length;
  const r = await runJarvis(['-p', 'go'], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
  });
  const requests = server.requests.slice(before);
  const last = requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  const results = last.filter((m) => m.role === 'tool').map((m) => String(m.content));
  return { ...r, results };
}

describe('skills loading skills in print mode', () => {
  it('a turn loads 6 skills one after another', async () => {
    const names = ['one', 'two', 'three', 'four', 'five', 'six'].map((n) => `step-${n}`);
    const r = await runWith(
      (dir) => names.forEach((n) => skill(dir, n, `Instructions of ${n}.`)),
      [...names.map(load), { text: 'all six loaded' }],
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('all six loaded');
    expect(r.results).toHaveLength(6);
    names.forEach((n, i) => expect(r.results[i]).toContain(`Instructions of ${n}.`));
  });

  it('a chain 4 deep is refused at the fourth, naming the chain', async () => {
    const r = await runWith(
      (dir) => {
        skill(dir, 'plan-work', 'Plan, then load the skill write-tests.');
        skill(dir, 'write-tests', 'Write tests, then use implement.');
        skill(dir, 'implement', 'Implement; finish with superpowers:verify.');
        skill(dir, 'verify', 'Verify everything.');
      },
      [load('plan-work'), load('write-tests'), load('implement'), load('verify'), { text: 'stopped' }],
    );
    expect(r.code).toBe(0);
    expect(r.results.slice(0, 3).map((t) => t.includes('<skill name='))).toEqual([true, true, true]);
    expect(r.results[3]).toContain('level 4 (plan-work → write-tests → implement → verify) and was not loaded');
    expect(r.results[3]).not.toContain('Verify everything.');
  });
});
