// docs/ci.md "jarvis review": the built CLI reviews a two-commit branch of a fixture repository (a planted off-by-one,
// a leaked key) with the scripted model. The JSON report validates against docs/schemas/review.schema.json, the
// SARIF log against the published SARIF 2.1.0 schema, findings are tied to lines of the diff (moved, made general or
// dropped as documented), --fail-on error exits 1, and no file under the repository changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../../helpers/mockModelServer';
import { cliEnv, latestJournal, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../../helpers/cli';
import { LEAKED_KEY_LINE, makeReviewRepo, OFF_BY_ONE_LINE, treeHash, type ReviewRepo } from '../../helpers/reviewRepo';
import { publishedValidator } from '../../helpers/publishedSchemas';

// Parsed JSON output: each assertion names the fields it reads.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const docsSchemas = join(import.meta.dirname, '../../../docs/schemas');
const ajv = new Ajv({ allErrors: true });
ajv.addSchema(JSON.parse(readFileSync(join(docsSchemas, 'stream-json-result.schema.json'), 'utf8')) as object);
const validateReport = ajv.compile(JSON.parse(readFileSync(join(docsSchemas, 'review.schema.json'), 'utf8')) as object);

let server: MockModelServer;
let dirs: CliDirs;
let repo: ReviewRepo;
beforeEach(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  repo = makeReviewRepo(dirs.cwd);
});
afterEach(async () => {
  await server.close();
});

const FINDINGS = [
  {
    path: 'src/range.ts',
    line: OFF_BY_ONE_LINE,
    severity: 'error',
    title: 'Off-by-one in the loop bound of sumFirst',
    body: '`i <= n` reads values[n], one past the n values asked for (undefined when n is the length).',
    suggestion: '  for (let i = 0; i < n; i++) {',
  },
  {
    path: './src/client.ts',
    line: LEAKED_KEY_LINE,
    severity: 'error',
    title: 'Live API key committed in source',
    body: 'The key is now in the history; revoke it and read it from the environment.',
  },
  {
    path: 'src/range.ts',
    line: 16,
    severity: 'info',
    title: 'Closing brace of sumFirst',
    body: 'Named a line just below the hunk: moved to the nearest changed line.',
  },
  {
    path: 'src/range.ts',
    line: 29,
    severity: 'warning',
    title: 'clamp does not check lo <= hi',
    body: 'Far from any change: reported for the file as a whole.',
  },
  { path: 'README.md', line: 1, severity: 'info', title: 'README is terse', body: 'Not part of the diff.' },
];

/** The model looks around (what it may and may not do), then answers with the findings. */
function reviewTurns(findings: unknown[] = FINDINGS): ScriptedTurn[] {
  return [
    {
      toolCalls: [
        { name: 'Bash', arguments: { command: 'git log --oneline -3' } },
        { name: 'Bash', arguments: { command: 'git diff --output=leak.txt HEAD~2' } },
        { name: 'Bash', arguments: { command: 'touch PWNED' } },
        { name: 'Read', arguments: { path: 'src/range.ts' } },
        { name: 'Write', arguments: { path: 'src/range.ts', content: 'overwritten' } },
      ],
    },
    {
      toolCalls: [
        { name: 'StructuredOutput', arguments: { summary: 'Two commits: a loop bound and a client.', findings } },
      ],
    },
  ];
}

async function review(args: string[], turns = reviewTurns()) {
  server.push(...turns);
  return runJarvis(['review', ...args], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: repo.root,
    timeoutMs: 60_000,
  });
}

describe('jarvis review', () => {
  it('reviews the branch against main: JSON report, SARIF, lines in the diff, nothing changed on disk', async () => {
    const before = treeHash(repo.root);
    const r = await review(['--output-format', 'json', '--sarif', '../out.sarif', '--markdown', '../out.md']);
    expect(r.code, r.stderr).toBe(0);
    expect(treeHash(repo.root)).toBe(before);

    const report = JSON.parse(r.stdout) as Json;
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.base).toEqual({ ref: 'merge base of main and HEAD', commit: repo.base });
    expect(report.head).toEqual({ ref: 'the working tree', commit: null });
    expect(report.files.map((f: { path: string }) => f.path)).toEqual(['src/client.ts', 'src/range.ts']);
    expect(report.counts).toEqual({ error: 2, warning: 1, info: 1 });
    expect(report.findings).toEqual([
      expect.objectContaining({ path: 'src/client.ts', line: LEAKED_KEY_LINE, severity: 'error' }),
      // The general finding (no line) sorts first within its file.
      expect.objectContaining({
        path: 'src/range.ts',
        original_line: 29,
        placement: expect.stringContaining('reported for the file as a whole'),
      }),
      expect.objectContaining({ path: 'src/range.ts', line: OFF_BY_ONE_LINE, severity: 'error' }),
      expect.objectContaining({
        path: 'src/range.ts',
        line: OFF_BY_ONE_LINE,
        original_line: 16,
        placement: `moved from line 16, which the diff does not show, to the nearest changed line ${OFF_BY_ONE_LINE}`,
      }),
    ]);
    expect(report.findings[1].line).toBeUndefined();
    expect(report.dropped).toEqual([
      { path: 'README.md', line: 1, title: 'README is terse', reason: 'README.md is not part of the diff' },
    ]);
    expect(r.stderr).toContain('notice: a finding was dropped: README.md is not part of the diff ("README is terse")');
    expect(report.run).toMatchObject({ outcome: 'success', exit_code: 0, model_turns: 2 });

    // What the reviewer could not do: the policy refused it (not the prompt), and nothing was written.
    // The tool results, in the order of the calls: git log, git diff --output, touch, Read, Write.
    const results = latestJournal(dirs.home)
      .filter((rec) => rec.type === 'message' && (rec.message as { role: string }).role === 'tool')
      .map((rec) => JSON.stringify((rec.message as { content: unknown }).content));
    expect(results).toHaveLength(6);
    expect(results[0]).toContain('numbers: sum, sumFirst');
    expect(results[1]).toContain('is denied by a permission rule (rule deny Bash(git *--output*) (jarvis review');
    expect(results[2]).toContain("Bash(touch PWNED) needs the user's approval, and no one can approve it");
    expect(results[3]).toContain('i <= n');
    // Write and Edit are not offered at all.
    expect(results[4]).toContain(
      'Unknown tool \\"Write\\". Available tools: Agent, AgentSwarm, Bash, Glob, Grep, Read, StructuredOutput',
    );

    // SARIF 2.1.0 against the published schema, with what code scanning needs.
    const sarif = JSON.parse(readFileSync(join(dirs.cwd, '..', 'out.sarif'), 'utf8')) as Json;
    const validate = publishedValidator('sarif');
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    // The schema is strict enough to catch a log code scanning would reject.
    expect(validate({ ...sarif, runs: [{ ...sarif.runs[0], results: [{ level: 'fatal', message: {} }] }] })).toBe(
      false,
    );
    const run = sarif.runs[0];
    expect(run.results).toHaveLength(4);
    const offByOne = run.results.find(
      (x: { level: string; locations: Json[] }) =>
        x.locations[0].physicalLocation.region.startLine === OFF_BY_ONE_LINE && x.level === 'error',
    );
    expect(offByOne).toMatchObject({
      ruleId: 'jarvis/off-by-one-in-the-loop-bound-of-sumfirst',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'src/range.ts', uriBaseId: '%SRCROOT%' } } }],
    });
    expect(Object.keys(offByOne.partialFingerprints)).toEqual(['jarvisFinding/v1']);
    expect(run.tool.driver.rules[offByOne.ruleIndex].id).toBe(offByOne.ruleId);

    const markdown = readFileSync(join(dirs.cwd, '..', 'out.md'), 'utf8');
    expect(markdown.startsWith('<!-- jarvis-review -->\n## Jarvis review')).toBe(true);
    expect(markdown).toContain('```suggestion\n  for (let i = 0; i < n; i++) {\n```');
  });

  it('--fail-on error exits 1 when an error is found; --fail-on with only info findings exits 0', async () => {
    const r = await review(['--fail-on', 'error']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('src/range.ts');
    expect(r.stdout).toMatch(/ 12\s+error\s+Off-by-one in the loop bound of sumFirst/);
    expect(r.stdout).toContain('4 findings: 2 errors, 1 warning, 1 info.');
    const calm = await review(['--fail-on', 'warning'], reviewTurns([FINDINGS[2]]));
    expect(calm.code, calm.stderr).toBe(0);
  });

  it('--base and --head review a range of commits (the working tree is left out)', async () => {
    const r = await review(
      ['--base', repo.base, '--head', `${repo.head}~1`, '--output-format', 'json'],
      reviewTurns([FINDINGS[0]]),
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { files: Array<{ path: string }>; head: unknown; findings: unknown[] };
    expect(report.files.map((f) => f.path)).toEqual(['src/range.ts']);
    expect(report.head).toEqual({ ref: `${repo.head}~1`, commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    // The model was given the diff of that range.
    const prompt = JSON.stringify(server.requests[0].body.messages);
    expect(prompt).toContain('i <= n');
    expect(prompt).not.toContain('API_KEY');
  });

  it('a usage error is exit 2 and says what to give', async () => {
    const bad = await review(['--fail-on', 'info'], []);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-on takes error or warning');
    const ref = await review(['--base', 'no-such-branch'], []);
    expect(ref.code).toBe(2);
    expect(ref.stderr).toContain('--base no-such-branch: no such commit');
    expect(server.requests).toHaveLength(0);
  });
});
