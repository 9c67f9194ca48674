// Issue 31's command lines against the built CLI, under the issue's config.toml (allow ls and git, deny rm,
// ask git push): through ACP in manual mode each raises an approval request (or is refused by the deny
// rule outright); through `jarvis -p` each is refused. Every line is first run by real bash in a scratch
// copy of the project, to show that it does create PWNED or delete the canary when nothing stops it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcpClient, type AcpTestClient } from '../helpers/acpClient';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const CONFIG = [
  ['allow', 'Bash(ls *)'],
  ['allow', 'Bash(git *)'],
  ['deny', 'Bash(rm *)'],
  ['ask', 'Bash(git push *)'],
]
  .map(([decision, pattern]) => `[[permission.rules]]\ndecision = "${decision}"\npattern = "${pattern}"\n`)
  .join('\n');

const NL = (s: string) => s.replace(/⏎/g, '\n');

// Lines a manual-mode user must be asked about; `reads` is what the request shows as bash's reading.
const ASKED: Array<{ line: string; reads?: string }> = [
  { line: 'ls "$\\⏎(touch PWNED)"', reads: 'ls "$(touch PWNED)"' },
  { line: 'git status <<EOF⏎$\\⏎(touch PWNED)⏎EOF', reads: 'git status <<EOF⏎$(touch PWNED)⏎EOF' },
  { line: 'ls "${X:-`touch PWNED`}"' },
  { line: 'tou\\⏎ch PWNED', reads: 'touch PWNED' },
  { line: "git -c alias.x='!touch PWNED' x" },
  { line: "git -c core.fsmonitor='touch PWNED' status" },
  { line: "git ls-remote --upload-pack='touch PWNED' ." },
  { line: "GIT_EXTERNAL_DIFF='touch PWNED' git diff" },
  { line: "git difftool -y -x 'touch PWNED'" },
];
// Lines the deny rule refuses in every mode once bash's reading is known.
const DENIED = ['cat <<<"$\\⏎(rm -f canary)"', 'ls ${X:-`rm -f canary`}', 'r\\⏎m -f canary'];

/** A git repository with a committed file changed in the work tree, and the canary. */
function project(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
  git('init', '-q');
  writeFileSync(join(dir, 'tracked.txt'), 'one\n');
  git('add', 'tracked.txt');
  git('commit', '-qm', 'one');
  writeFileSync(join(dir, 'tracked.txt'), 'two\n');
  writeFileSync(join(dir, 'canary'), 'alive\n');
}

let server: MockModelServer;
let dirs: CliDirs;

beforeAll(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  writeFileSync(join(dirs.home, 'config.toml'), CONFIG);
  project(dirs.cwd);
});

afterAll(async () => {
  await server.close();
  rmSync(join(dirs.home, '..'), { recursive: true, force: true });
});

describe('the lines are real attacks', () => {
  it.each([...ASKED.map((a) => a.line), ...DENIED])('bash runs the hidden command of %j', (written) => {
    const scratch = mkdtempSync(join(tmpdir(), 'jarvis-attack-'));
    try {
      project(scratch);
      const r = spawnSync('bash', ['-c', NL(written)], {
        cwd: scratch,
        encoding: 'utf8',
        env: { ...process.env, X: '' },
      });
      const hit = existsSync(join(scratch, 'PWNED')) || !existsSync(join(scratch, 'canary'));
      expect(hit, `${written}\n${r.stderr}`).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('jarvis -p under the rules of issue 31', () => {
  it('refuses every line: the canary survives and no PWNED is made', async () => {
    const lines = [...ASKED.map((a) => a.line), ...DENIED].map(NL);
    const before = server.requests.length;
    server.push(
      { toolCalls: lines.map((command, i) => ({ id: `c${i}`, name: 'Bash', arguments: { command } })) },
      { text: 'All refused.' },
    );
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'try them'], { env, cwd: dirs.cwd, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dirs.cwd, 'canary'))).toBe(true);
    expect(existsSync(join(dirs.cwd, 'PWNED'))).toBe(false);
    const results = new Map<string, string>();
    for (const m of server.requests[before + 1].body.messages)
      if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
    lines.forEach((line, i) =>
      expect(results.get(`c${i}`), line).toContain('is denied by a permission rule (rule deny Bash(rm *)'),
    );
    expect(results.get(`c${lines.length - 1}`)).toContain('it runs rm -f canary');
  });
});

describe('jarvis acp in manual mode under the rules of issue 31', () => {
  let editor: AcpTestClient;
  beforeAll(async () => {
    editor = await startAcpClient({ env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
    editor.answerPermissions('reject');
  });
  afterAll(async () => {
    await editor?.close();
  });

  it.each(ASKED)('asks before $line and runs nothing when rejected', async ({ line, reads }) => {
    const command = NL(line);
    server.push({ toolCalls: [{ id: 'asked', name: 'Bash', arguments: { command } }] });
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    const before = editor.permissionRequests.length;
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run it' }],
    });
    expect(response.stopReason).toBe('end_turn');
    const asked = editor.permissionRequests.slice(before);
    expect(asked).toHaveLength(1);
    const shown = JSON.stringify(asked[0].toolCall.content);
    expect(shown).toContain('Bash(');
    if (reads) expect(shown).toContain(JSON.stringify(`Bash reads it as: ${NL(reads)}`).slice(1, -1));
    expect(existsSync(join(dirs.cwd, 'PWNED'))).toBe(false);
    expect(server.remaining()).toBe(0);
  });

  it.each(DENIED)('refuses %j by the deny rule without asking', async (line) => {
    server.push(
      { toolCalls: [{ id: 'denied', name: 'Bash', arguments: { command: NL(line) } }] },
      { text: 'Refused.' },
    );
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    const before = editor.permissionRequests.length;
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run it' }],
    });
    expect(response.stopReason).toBe('end_turn');
    expect(editor.permissionRequests.length).toBe(before);
    expect(existsSync(join(dirs.cwd, 'canary'))).toBe(true);
    const last = server.requests[server.requests.length - 1].body.messages;
    expect(JSON.stringify(last)).toContain('is denied by a permission rule (rule deny Bash(rm *)');
  });
});
