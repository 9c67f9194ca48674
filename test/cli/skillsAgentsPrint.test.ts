// Skills and custom agents end to end: the built CLI in print mode against the loopback mock model.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { putFile as put } from '../helpers/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

function skill(dir: string, name: string, description: string, body = `Body of ${description}.`): void {
  put(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

async function run(dirs: CliDirs, args: string[]) {
  const before = server.requests.length;
  const r = await runJarvis(args, { env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
  return { ...r, requests: server.requests.slice(before) };
}

function systemOf(body: { messages: Array<{ role: string; content: unknown }> }): string {
  return String(body.messages.find((m) => m.role === 'system')?.content ?? '');
}

describe('skills in print mode', () => {
  it('/skill:<name> args fills $ARGUMENTS, $0 and $1; the /<name> shorthand works too', async () => {
    const dirs = makeCliDirs();
    mkdirSync(join(dirs.cwd, '.git'));
    skill(
      join(dirs.cwd, '.jarvis-code/skills'),
      'commit',
      'Write a commit',
      'Commit with message "$0" of kind $1.\nAll: $ARGUMENTS',
    );
    server.push({ text: 'Committed.' }, { text: 'Again.' });
    const r = await run(dirs, ['-p', '/skill:commit "fix login" patch']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Committed.');
    const sent = JSON.stringify(r.requests[0].body.messages.at(-1));
    expect(sent).toContain('Commit with message \\"fix login\\" of kind patch.');
    expect(sent).toContain('All: \\"fix login\\" patch');
    const short = await run(dirs, ['-p', '/commit tidy up']);
    expect(JSON.stringify(short.requests[0].body.messages.at(-1))).toContain(
      'Commit with message \\"tidy\\" of kind up.',
    );
  });

  it('an unknown /skill: name fails with the list of skills; the request is never sent', async () => {
    const dirs = makeCliDirs();
    skill(join(dirs.home, 'skills'), 'lint', 'Lint it');
    const r = await run(dirs, ['-p', '/skill:nope']);
    expect(r.code).toBe(2);
    // The bundled jarvis-documents plugin's skills follow the project's own.
    expect(r.stderr).toMatch(/There is no skill "nope"\. Available skills: lint(, [a-z-]+)*\./);
    expect(r.requests).toHaveLength(0);
  });

  it('finds skills in every root with the right priority and lists them in the system prompt', async () => {
    const dirs = makeCliDirs();
    mkdirSync(join(dirs.cwd, '.git'));
    writeFileSync(join(dirs.home, 'config.toml'), `extra_skill_dirs = ["${join(dirs.home, 'extra')}"]\n`);
    skill(join(dirs.cwd, '.jarvis-code/skills'), 'shared', 'from project jarvis-code');
    skill(join(dirs.cwd, '.agents/skills'), 'agents-project', 'from project agents');
    skill(join(dirs.home, 'skills'), 'shared', 'from user home');
    skill(join(dirs.home, 'skills'), 'user-only', 'from user home only');
    skill(join(dirs.home, '.agents/skills'), 'user-only', 'from cross-tool folder');
    skill(join(dirs.home, '.agents/skills'), 'cross', 'from cross-tool folder only');
    skill(join(dirs.home, 'extra'), 'cross', 'from extra');
    skill(join(dirs.home, 'extra'), 'extra-only', 'from extra only');
    put(join(dirs.home, 'skills', 'broken', 'SKILL.md'), 'no frontmatter');
    server.push({ text: 'ok' });
    const r = await run(dirs, ['-p', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: skill skipped: .*broken.*needs name and description/);
    const system = systemOf(r.requests[0].body);
    for (const line of [
      '- shared: from project jarvis-code',
      '- agents-project: from project agents',
      '- user-only: from user home only',
      '- cross: from cross-tool folder only',
      '- extra-only: from extra only',
    ]) {
      expect(system).toContain(line);
    }
    expect(system).not.toMatch(/from user home\n|from cross-tool folder\n|from extra\n/);
    expect(r.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('Skill');

    server.push({ text: 'ok' });
    put(join(dirs.home, 'given', 'given.md'), 'A given skill.');
    const replaced = await run(dirs, ['-p', 'hello', '--skills-dir', join(dirs.home, 'given')]);
    const replacedSystem = systemOf(replaced.requests[0].body);
    expect(replacedSystem).toContain('- given: A given skill.');
    expect(replacedSystem).toContain('- extra-only: from extra only');
    expect(replacedSystem).not.toContain('from project');
  });
});

describe('custom agents in print mode', () => {
  const agentFile = (description: string, extra = '') =>
    `---\ndescription: ${description}\n${extra}---\nYou are the ${description} agent in \${cwd}.\n`;
  const toolNames = (body: { tools?: Array<{ function: { name: string } }> }) =>
    (body.tools ?? []).map((t) => t.function.name);

  it('--agent picks a discovered agent: its prompt, exactly its tools; project beats user', async () => {
    const dirs = makeCliDirs();
    mkdirSync(join(dirs.cwd, '.git'));
    put(join(dirs.home, 'agents', 'reviewer.md'), agentFile('user reviewer'));
    put(
      join(dirs.cwd, '.agents', 'agents', 'team', 'reviewer.md'),
      agentFile('project reviewer', 'tools: Grep, Read\nmodel: opus\n'),
    );
    server.push({ text: 'Reviewed.' });
    const r = await run(dirs, ['-p', 'review', '--agent', 'reviewer']);
    expect(r.code).toBe(0);
    expect(systemOf(r.requests[0].body)).toBe(`You are the project reviewer agent in ${dirs.cwd}.`);
    expect(toolNames(r.requests[0].body).sort()).toEqual(['Grep', 'Read']);
  });

  it('--agent-file loads one file and selects it, over everything else', async () => {
    const dirs = makeCliDirs();
    put(join(dirs.home, 'agents', 'solo.md'), agentFile('discovered solo'));
    put(join(dirs.home, 'elsewhere', 'solo.md'), agentFile('explicit solo', 'tools: []\n'));
    server.push({ text: 'Solo.' });
    const r = await run(dirs, ['-p', 'hi', '--agent-file', join(dirs.home, 'elsewhere', 'solo.md')]);
    expect(r.code).toBe(0);
    expect(systemOf(r.requests[0].body)).toBe(`You are the explicit solo agent in ${dirs.cwd}.`);
    expect(toolNames(r.requests[0].body)).toEqual([]);
  });

  it('an unknown --agent lists the available agents; a broken --agent-file is an error; both before any request', async () => {
    const dirs = makeCliDirs();
    put(join(dirs.home, 'agents', 'helper.md'), agentFile('helper'));
    const unknown = await run(dirs, ['-p', 'hi', '--agent', 'nobody']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/unknown agent "nobody"\. Available agents: .*helper.*agent.*coder.*explore.*plan/);
    // "Bad Name" would be read as bad-name; the empty body is what refuses it.
    put(join(dirs.home, 'bad.md'), '---\nname: Bad Name\ndescription: x\n---\n');
    const bad = await run(dirs, ['-p', 'hi', '--agent-file', join(dirs.home, 'bad.md')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(
      "the agent file has no body; the Markdown after the frontmatter is the agent's system prompt",
    );
    const missing = await run(dirs, ['-p', 'hi', '--agent-file', join(dirs.home, 'missing.md')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('cannot be read (ENOENT)');
    expect([...unknown.requests, ...bad.requests, ...missing.requests]).toHaveLength(0);
  });
});
