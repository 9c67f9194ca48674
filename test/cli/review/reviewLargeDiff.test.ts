// docs/ci.md "Large diffs": a diff of more than 25 files is not put in the request; the reviewer hands groups of
// files to `review-files` swarm members (one per group), which read their diff with git under the same read-only
// rules and answer with JSON arrays; the reviewer's merged answer is the review. The built CLI, a scripted model
// that answers by who asks, and the fixture repository with 30 more files on its branch.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer, type RecordedRequest } from '../../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../../helpers/cli';
import { git, makeReviewRepo, OFF_BY_ONE_LINE, treeHash } from '../../helpers/reviewRepo';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer({ script: (req) => answer(req) });
});
afterAll(async () => {
  await server.close();
});

/** A message's text: a string, or its text parts joined. */
const content = (m: { content: unknown }): string =>
  typeof m.content === 'string'
    ? m.content
    : (m.content as Array<{ text?: string }>).map((p) => p.text ?? JSON.stringify(p)).join('\n');
const isMember = (req: RecordedRequest) => content(req.body.messages[0]).includes('You review part of a change');
const taskOf = (req: RecordedRequest) => content(req.body.messages[1]);
const toolResults = (req: RecordedRequest) =>
  (req.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'tool').map(content);
const offeredTools = (req: RecordedRequest) =>
  (req.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);

const OFF_BY_ONE = {
  path: 'src/range.ts',
  line: OFF_BY_ONE_LINE,
  severity: 'error',
  title: 'Off-by-one in sumFirst',
  body: '`i <= n` reads one value too many.',
};

function answer(req: RecordedRequest) {
  if (isMember(req)) {
    const task = taskOf(req);
    // First the member reads its diff, with the command its task names; then it answers.
    if (toolResults(req).length === 0)
      return { toolCalls: [{ name: 'Bash', arguments: { command: /Their diff: `([^`]+)`/.exec(task)![1] } }] };
    return { text: JSON.stringify(task.includes('src/range.ts') ? [OFF_BY_ONE] : []) };
  }
  const request = content(req.body.messages.find((m: { role: string }) => m.role === 'user'));
  const block = /```json\n([\s\S]*?)\n```/.exec(request);
  if (block && toolResults(req).length === 0) {
    const items = JSON.parse(block[1]) as string[];
    return {
      toolCalls: [
        { name: 'AgentSwarm', arguments: { subagent_type: 'review-files', prompt_template: '{{item}}', items } },
      ],
    };
  }
  return {
    toolCalls: [
      { name: 'StructuredOutput', arguments: { summary: 'Merged from the groups.', findings: [OFF_BY_ONE] } },
    ],
  };
}

function reviewIn(root: string, dirs: ReturnType<typeof makeCliDirs>, args: string[] = []) {
  return runJarvis(['review', '--output-format', 'json', ...args], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: root,
    timeoutMs: 90_000,
  });
}

it(
  'a diff of more than 25 files is split into groups reviewed by swarm members, and merged',
  { timeout: 120_000 },
  async () => {
    const dirs = makeCliDirs();
    const repo = makeReviewRepo(dirs.cwd);
    mkdirSync(join(repo.root, 'src/gen'), { recursive: true });
    for (let i = 0; i < 30; i++)
      writeFileSync(join(repo.root, `src/gen/table${String(i).padStart(2, '0')}.ts`), `export const T${i} = ${i};\n`);
    git(repo.root, 'add', '-A');
    git(repo.root, 'commit', '-q', '-m', 'generated tables');
    const before = treeHash(repo.root);

    const first = server.requests.length;
    const r = await reviewIn(repo.root, dirs);
    expect(r.code, r.stderr).toBe(0);
    expect(treeHash(repo.root)).toBe(before);
    // 32 files (the two of the fixture, 30 generated) in groups of at most 12.
    expect(r.stderr).toContain('large diff: 32 files in 3 groups, one subagent each');

    const requests = server.requests.slice(first);
    const main = requests.filter((q) => !isMember(q));
    expect(content(main[0].body.messages.find((m: { role: string }) => m.role === 'user'))).not.toContain('@@ ');
    const members = requests.filter(isMember);
    const tasks = new Set(members.map(taskOf));
    expect(tasks.size).toBe(3);
    for (const q of members) {
      expect(offeredTools(q)).not.toContain('Write');
      expect(offeredTools(q)).not.toContain('Edit');
      expect(offeredTools(q)).not.toContain('AgentSwarm');
    }
    // Each member's git diff ran (allowed by the review's rules) and showed its own files.
    const diffs = members.filter((q) => toolResults(q).length > 0).map((q) => toolResults(q)[0]);
    expect(diffs).toHaveLength(3);
    expect(diffs.filter((d) => d.includes('+  for (let i = 0; i <= n; i++) {'))).toHaveLength(1);
    expect(diffs.every((d) => d.includes('diff --git'))).toBe(true);
    // The members' answers reached the reviewer in the swarm's report.
    expect(toolResults(main.at(-1)!)[0]).toContain('3 of 3 completed');

    const report = JSON.parse(r.stdout) as { files: unknown[]; findings: Array<{ path: string; line: number }> };
    expect(report.files).toHaveLength(32);
    expect(report.findings).toEqual([expect.objectContaining({ path: 'src/range.ts', line: OFF_BY_ONE_LINE })]);
  },
);

it('one file larger than a group is not split (a swarm needs two members): the reviewer reads it in parts', async () => {
  const dirs = makeCliDirs();
  const repo = makeReviewRepo(dirs.cwd);
  const rows = Array.from({ length: 3000 }, (_, i) => `  [${i}, 'row ${i} of the generated lookup table'],`);
  writeFileSync(join(repo.root, 'src/lookup.ts'), `export const LOOKUP = [\n${rows.join('\n')}\n];\n`);
  const first = server.requests.length;
  const r = await reviewIn(repo.root, dirs, ['--paths', 'src/lookup.ts']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain('large diff');
  const requests = server.requests.slice(first);
  expect(requests.filter(isMember)).toHaveLength(0);
  const request = content(requests[0].body.messages.find((m: { role: string }) => m.role === 'user'));
  expect(request).toMatch(/The diff is large \(\d+ characters in 1 file\), so it is not included here/);
  expect(request).toContain(`Read it one file at a time with \`git diff ${repo.base} -- <path>\``);
  expect(request).not.toContain('AgentSwarm');
});
