// Files beside the journal, end to end with the built CLI (docs/sessions.md "What is kept on disk"):
// a fresh session's folders are 0700 and its files 0600, and a retry after a partly streamed answer
// leaves only the second attempt on stdout and in the journal.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, latestJournal, latestSessionDir, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** Every folder and file under `dir`, with its permission bits. */
function modes(dir: string): Array<{ path: string; dir: boolean; mode: number }> {
  const out: Array<{ path: string; dir: boolean; mode: number }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = statSync(path);
    out.push({ path, dir: info.isDirectory(), mode: info.mode & 0o777 });
    if (info.isDirectory()) out.push(...modes(path));
  }
  return out;
}

describe('files beside the journal', () => {
  it("a fresh session's folders are 0700 and its files 0600: journal, index, outputs, task records", async () => {
    const dirs = makeCliDirs();
    server.push(
      { toolCalls: [{ id: 'big', name: 'Bash', arguments: { command: 'seq 1 40000' } }] },
      {
        toolCalls: [
          {
            id: 'bg',
            name: 'Bash',
            arguments: { command: 'echo in the background', run_in_background: true, description: 'echo' },
          },
        ],
      },
      { text: 'Done.' },
      // Print mode waits for the background task and gives its notification a turn.
      { text: 'Noted.' },
    );
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_DISABLE_CRON: '1' });
    const r = await runJarvis(['-p', 'print a lot', '--yolo'], { env, cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    const session = latestSessionDir(dirs.home);
    const entries = modes(join(dirs.home, 'sessions'));
    const names = entries.map((e) => e.path.slice(session.length + 1));
    // Outputs are in the scratch folder, records beside the journal (docs/sessions.md, "The scratch folder").
    expect(names).toEqual(
      expect.arrayContaining(['agents/main/wire.jsonl', 'state.json', 'scratch', 'scratch/tool-outputs', 'tasks']),
    );
    expect(names.some((n) => /^scratch\/tool-outputs\/main-\d+-\d+-\d+\.txt$/.test(n))).toBe(true);
    expect(names.some((n) => /^tasks\/b[a-z0-9]+\.json$/.test(n))).toBe(true);
    expect(names.some((n) => /^scratch\/tasks\/b[a-z0-9]+\/output\.log$/.test(n))).toBe(true);
    const wrong = entries.filter((e) => e.mode !== (e.dir ? 0o700 : 0o600));
    expect(wrong.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
    expect(statSync(join(dirs.home, 'session_index.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('a retry after a partly streamed answer prints the second attempt only; the journal keeps only it', async () => {
    const dirs = makeCliDirs();
    // The first attempt streams part of its answer, then stalls until the idle time-out retries it.
    writeFileSync(join(dirs.home, 'config.toml'), '[loop_control]\nidle_timeout_s = 1\n');
    server.push({ text: 'The answer is 4', stall: true }, { text: 'The answer is 42.' });
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'what is the answer?'], { env, cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('• The answer is 42.\n');
    expect(r.stderr).toMatch(/retrying in/);
    const texts = latestJournal(dirs.home).flatMap((rec) => {
      const message = rec.message as { role?: string; text?: string } | undefined;
      return rec.type === 'message' && message?.role === 'assistant' ? [message.text] : [];
    });
    expect(texts).toEqual(['The answer is 42.']);
  });
});
