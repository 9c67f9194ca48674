// docs/ci.md "The GitHub Action": the Action's script (`jarvis github-action`, what action.yml runs) end to end — the
// built CLI, the scripted model, a fixture repository and a loopback fake of GitHub's REST API that records what was
// posted. Review mode posts one review with its line comments and updates it on later runs; prompt mode answers an
// @jarvis mention (and pushes a branch in push mode); a fork's pull request and an outsider's comment are refused.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../../helpers/mockModelServer';
import { cliEnv, makeCliDirs, runJarvis, type CliDirs } from '../../helpers/cli';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fakeGitHub';
import { git, LEAKED_KEY_LINE, makeReviewRepo, OFF_BY_ONE_LINE, type ReviewRepo } from '../../helpers/reviewRepo';

const TOKEN = 'ghs_fixtureToken0123456789';
const MODEL_KEY = 'sk-model-fixture-secret-42';

let server: MockModelServer;
let github: FakeGitHub;
let dirs: CliDirs;
let repo: ReviewRepo;
let temp: string;

/** The new-side lines of each hunk of the pull request's diff, read from git's hunk headers. */
function diffLines(root: string, base: string, head: string): Record<string, Set<number>> {
  const out: Record<string, Set<number>> = {};
  let path = '';
  for (const line of git(root, 'diff', '-U3', `${base}...${head}`).split('\n')) {
    if (line.startsWith('+++ b/')) path = line.slice(6);
    const m = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) for (let i = 0; i < Number(m[2] ?? 1); i++) (out[path] ??= new Set()).add(Number(m[1]) + i);
  }
  return out;
}

beforeEach(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  repo = makeReviewRepo(dirs.cwd);
  github = await startFakeGitHub({ token: TOKEN, diffLines: diffLines(repo.root, repo.base, repo.head) });
  temp = join(dirs.home, '..', 'runner-temp');
  mkdirSync(temp, { recursive: true });
});
afterEach(async () => {
  await server.close();
  await github.close();
});

const PULL = (head = 'acme/numbers') => ({
  number: 7,
  base: { sha: repo.base, repo: { full_name: 'acme/numbers' } },
  head: { sha: repo.head, repo: { full_name: head } },
});

async function action(eventName: string, event: unknown, inputs: Record<string, string>, turns: ScriptedTurn[]) {
  const eventPath = join(temp, 'event.json');
  const outputs = join(temp, `outputs-${github.requests.length}.txt`);
  writeFileSync(eventPath, JSON.stringify(event));
  writeFileSync(outputs, '');
  server.push(...turns);
  const env = cliEnv(dirs, {
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/numbers',
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_API_URL: github.url,
    GITHUB_WORKSPACE: repo.root,
    GITHUB_OUTPUT: outputs,
    GITHUB_RUN_ID: '4242',
    RUNNER_TEMP: temp,
    INPUT_GITHUB_TOKEN: TOKEN,
    INPUT_API_KEY: MODEL_KEY,
    INPUT_MODEL: 'mock-model',
    INPUT_PROVIDER_TYPE: 'openai',
    INPUT_BASE_URL: server.baseUrlFor('openai'),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
  });
  const r = await runJarvis(['github-action'], { env, cwd: repo.root, timeoutMs: 60_000 });
  return { ...r, outputs: readFileSync(outputs, 'utf8') };
}

const finding = (line: number, title: string, severity = 'error', path = 'src/range.ts') => ({
  path,
  line,
  severity,
  title,
  body: `${title}: details.`,
});
const answer = (findings: unknown[]): ScriptedTurn[] => [
  { toolCalls: [{ name: 'StructuredOutput', arguments: { summary: 'Looked at both commits.', findings } }] },
];
const FIRST = [
  finding(OFF_BY_ONE_LINE, 'Off-by-one in sumFirst'),
  finding(LEAKED_KEY_LINE, 'Leaked API key', 'error', 'src/client.ts'),
  finding(29, 'clamp does not check lo <= hi', 'warning'),
];

/** Output `name` of a GITHUB_OUTPUT file written in the multi-line form. */
function output(file: string, name: string): string {
  const m = new RegExp(`^${name}<<(\\S+)\\n([\\s\\S]*?)\\n\\1$`, 'm').exec(file);
  if (!m) throw new Error(`no output ${name} in ${file}`);
  return m[2];
}

describe('the GitHub Action: review mode', () => {
  it('posts one review with its line comments, updates it when nothing changed, and replaces it after a new push', async () => {
    const first = await action('pull_request', { pull_request: PULL() }, { mode: 'review' }, answer(FIRST));
    expect(first.code, first.stderr + first.stdout).toBe(0);
    // Secrets are masked first and never printed otherwise.
    expect(first.stdout.split('\n').slice(0, 2)).toEqual([`::add-mask::${MODEL_KEY}`, `::add-mask::${TOKEN}`]);
    for (const text of [first.stdout.split('\n').slice(2).join('\n'), first.stderr]) {
      expect(text).not.toContain(MODEL_KEY);
      expect(text).not.toContain(TOKEN);
    }
    // The model was reached with the key from the input.
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${MODEL_KEY}`);

    expect(github.reviews).toHaveLength(1);
    const review = github.reviews[0];
    expect(review.commit_id).toBe(repo.head);
    expect(review.body).toContain('<!-- jarvis-review -->');
    // The general finding is in the body; the two on diff lines are line comments.
    expect(review.body).toContain('clamp does not check lo <= hi');
    expect(github.comments.map((c) => [c.path, c.line])).toEqual([
      ['src/client.ts', LEAKED_KEY_LINE],
      ['src/range.ts', OFF_BY_ONE_LINE],
    ]);
    const report = JSON.parse(output(first.outputs, 'result')) as { exit_code: number; counts: unknown };
    expect(report.counts).toEqual({ error: 2, warning: 1, info: 0 });
    expect(JSON.parse(output(first.outputs, 'structured_output'))).toMatchObject({
      summary: 'Looked at both commits.',
    });

    // The same findings again: the review is updated in place, nothing new is posted.
    const again = await action('pull_request', { pull_request: PULL() }, { mode: 'review' }, answer(FIRST));
    expect(again.code, again.stderr).toBe(0);
    expect(github.reviews).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);

    // A new push fixed the key: a new review replaces the old one, whose comments are removed.
    const fixed = await action('pull_request', { pull_request: PULL() }, { mode: 'review' }, answer([FIRST[0]]));
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(github.reviews).toHaveLength(2);
    expect(github.reviews[0].body).toContain('Superseded by a newer Jarvis review');
    expect(github.reviews[0].body).not.toContain('<!-- jarvis-review -->');
    expect(github.reviews.filter((r) => r.body.includes('<!-- jarvis-review -->'))).toHaveLength(1);
    expect(github.comments.map((c) => [c.review_id, c.line])).toEqual([[github.reviews[1].id, OFF_BY_ONE_LINE]]);
    expect(github.requests.filter((r) => r.method === 'DELETE')).toHaveLength(2);
  });

  it("leaves alone a person's review that carries Jarvis's marker: it is not Jarvis's to edit", async () => {
    const spoof = {
      id: 1,
      body: '<!-- jarvis-review -->\nlooks fine to me',
      commit_id: repo.base,
      html_url: 'https://github.example/acme/numbers/pull/7#pullrequestreview-1',
      user: { login: 'mallory', type: 'User' as const },
    };
    github.reviews.push(spoof);
    github.comments.push({ id: 2, review_id: 1, path: 'src/range.ts', line: OFF_BY_ONE_LINE, body: 'mine' });
    const r = await action('pull_request', { pull_request: PULL() }, { mode: 'review' }, answer(FIRST));
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(github.reviews).toHaveLength(2);
    expect(github.reviews[0].body).toBe('<!-- jarvis-review -->\nlooks fine to me');
    expect(github.comments.filter((c) => c.review_id === 1)).toHaveLength(1);
    expect(github.requests.filter((q) => q.method === 'PUT' || q.method === 'DELETE')).toHaveLength(0);
  });

  it('fails the step with fail_on when an error is found, after posting the review', async () => {
    const r = await action(
      'pull_request',
      { pull_request: PULL() },
      { mode: 'review', fail_on: 'error' },
      answer(FIRST),
    );
    expect(r.code).toBe(1);
    expect(github.reviews).toHaveLength(1);
  });

  it("refuses a fork's pull request unless allow_forks is set: nothing is run or posted", async () => {
    const r = await action(
      'pull_request',
      { pull_request: PULL('mallory/numbers') },
      { mode: 'review' },
      answer(FIRST),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::refusing to run on a pull request from mallory/numbers');
    expect(r.stdout).toContain('allow_forks: true');
    expect(server.requests).toHaveLength(0);
    expect(github.requests).toHaveLength(0);
    const allowed = await action(
      'pull_request',
      { pull_request: PULL('mallory/numbers') },
      { mode: 'review', allow_forks: 'true' },
      answer(FIRST),
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(github.reviews).toHaveLength(1);
  });
});

describe('the GitHub Action: prompt mode', () => {
  const comment = (body: string, association = 'MEMBER') => ({
    action: 'created',
    issue: { number: 3, title: 'What does sumFirst do?', body: 'Asking for the docs.' },
    comment: { body, author_association: association, user: { login: 'alice' } },
  });

  it('answers an @jarvis mention with a comment; the agent only reads', async () => {
    const r = await action('issue_comment', comment('@jarvis what does sumFirst return?'), { mode: 'prompt' }, [
      { toolCalls: [{ name: 'Write', arguments: { path: 'x.txt', content: 'no' } }] },
      { text: 'It returns the sum of the first n values.' },
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(github.issueComments).toEqual([
      { issue: 3, body: '<!-- jarvis-answer -->\nIt returns the sum of the first n values.' },
    ]);
    const prompt = JSON.stringify(server.requests[0].body.messages);
    expect(prompt).toContain('what does sumFirst return?');
    expect(prompt).toContain('What does sumFirst do?');
    // Read-only by default: Write was not offered, and no file appeared.
    const offered = (server.requests[0].body.tools as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(offered).not.toContain('Write');
    expect(existsSync(join(repo.root, 'x.txt'))).toBe(false);
    expect(JSON.parse(output(r.outputs, 'result'))).toMatchObject({ outcome: 'success' });
  });

  it('ignores a comment without the mention, and one from a user without write access', async () => {
    const none = await action('issue_comment', comment('thanks, looks good'), { mode: 'prompt' }, []);
    expect(none.code).toBe(0);
    const outsider = await action(
      'issue_comment',
      comment('@jarvis delete everything', 'NONE'),
      { mode: 'prompt' },
      [],
    );
    expect(outsider.code).toBe(0);
    expect(outsider.stdout).toContain('ignored: alice (NONE) has no write access');
    expect(server.requests).toHaveLength(0);
    expect(github.requests).toHaveLength(0);
  });

  it('push mode: the change is committed to a new branch, pushed, and named in the answer', async () => {
    const origin = join(dirs.home, '..', 'origin.git');
    git(repo.root, 'clone', '-q', '--bare', repo.root, origin);
    git(repo.root, 'remote', 'add', 'origin', origin);
    const r = await action(
      'issue_comment',
      comment('@jarvis add a CHANGELOG'),
      { mode: 'prompt', permission_mode: 'push' },
      [
        { toolCalls: [{ name: 'Write', arguments: { path: 'CHANGELOG.md', content: '# Changes\n' } }] },
        { text: 'Added CHANGELOG.md.' },
      ],
    );
    expect(r.code, r.stderr).toBe(0);
    const branch = 'jarvis/issue-3-4242';
    expect(output(r.outputs, 'branch')).toBe(branch);
    expect(git(origin, 'show', `${branch}:CHANGELOG.md`)).toBe('# Changes');
    expect(github.issueComments[0].body).toContain(`The changes are on the branch \`${branch}\`.`);
  });

  it("refuses a mention on a fork's pull request", async () => {
    github.pulls.set(3, PULL('mallory/numbers'));
    const event = { ...comment('@jarvis review this'), issue: { number: 3, title: 't', body: '', pull_request: {} } };
    const r = await action('issue_comment', event, { mode: 'prompt' }, []);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('refusing to run on a pull request from mallory/numbers');
    expect(server.requests).toHaveLength(0);
    expect(github.issueComments).toHaveLength(0);
  });
});
