// Print mode end to end against the mock model: a compaction keeps the user's words, and different
// invalid tool calls do not end a turn.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

describe("jarvis -p: compaction keeps the user's words", () => {
  it('a summary that forgets the instruction does not lose it: the next request carries the prompt verbatim, then the summary', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.cwd, 'big.txt'),
      Array.from({ length: 900 }, (_, i) => `line ${i} ${'q'.repeat(40)}`).join('\n'),
    );
    const instruction = 'Summarise big.txt, but never mention line 7.';
    const first = server.requests.length;
    server.push(
      { toolCalls: [{ name: 'Read', arguments: { path: 'big.txt' } }], usage: { input: 500, output: 10 } },
      { text: 'I read a long file of numbered lines.' }, // the summariser: no instruction in it
      { text: 'It holds 900 numbered lines.' },
    );
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_MODEL_MAX_CONTEXT_SIZE: '12000' });
    const r = await runJarvis(['-p', instruction], { env, cwd: dirs.cwd });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const [, summariser, next] = server.requests.slice(first);
    expect(summariser.body.messages[0].content).toMatch(/hand-off note/);
    const opening = JSON.stringify(next.body.messages.find((m: { role: string }) => m.role === 'user'));
    expect(opening).toContain(`<user-message>\\n${instruction}\\n</user-message>`);
    expect(opening.indexOf(instruction)).toBeLessThan(opening.indexOf('I read a long file of numbered lines.'));
    expect(r.stdout).toContain('It holds 900 numbered lines.');
  });
});

describe('jarvis -p: invalid tool calls', () => {
  it('three different invalid calls, then a valid one: the turn goes on and exits 0', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'remember the milk\n');
    const first = server.requests.length;
    server.push(
      { toolCalls: [{ name: 'Read', arguments: '{"path": "notes.txt"' }] },
      { toolCalls: [{ name: 'Teleport', arguments: { to: 'mars' } }] },
      { toolCalls: [{ name: 'Read', arguments: { path: 42 } }] },
      { toolCalls: [{ name: 'Read', arguments: { path: 'notes.txt' } }] },
      { text: 'The note says to remember the milk.' },
    );
    const r = await runJarvis(['-p', 'what does notes.txt say?'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('The note says to remember the milk.');
    const requests = server.requests.slice(first);
    expect(requests).toHaveLength(5);
    const toolResults = requests[4].body.messages
      .filter((m: { role: string }) => m.role === 'tool')
      .map((m: { content: string }) => m.content);
    expect(toolResults[0]).toMatch(/not valid JSON/);
    expect(toolResults[1]).toMatch(/Unknown tool "Teleport"/);
    expect(toolResults[2]).toMatch(/Invalid arguments for Read/);
    expect(toolResults[3]).toContain('remember the milk');
  });

  it('the same invalid call five times in a row stops the turn with exit 1 and says why', async () => {
    const dirs = makeCliDirs();
    const same = { toolCalls: [{ name: 'Read', arguments: { path: 42 } }] };
    const first = server.requests.length;
    server.push(same, same, same, same, same);
    const r = await runJarvis(['-p', 'read it'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/same invalid Read call \(same arguments\) 5 times in a row/);
    expect(server.requests.length - first).toBe(5);
  });
});

describe('jarvis -p: a journal that cannot be written', () => {
  it('the turn ends with exit 1 and an error naming the journal; no crash, no stack trace', async () => {
    // The session folder is out of a sandboxed command's reach (docs/trust-boundary.md), so the journal is broken from
    // outside, while the model answers: as root a read-only folder does not stop a write, so a folder is put where
    // the journal is.
    const dirs = makeCliDirs();
    const journals = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? journals(join(dir, e.name)) : e.name === 'wire.jsonl' ? [join(dir, e.name)] : [],
      );
    let requests = 0;
    const breaking = await startMockModelServer({
      script: () => {
        requests++;
        const [journal] = journals(join(dirs.home, 'sessions'));
        rmSync(journal);
        mkdirSync(journal);
        return { toolCalls: [{ name: 'Read', arguments: { path: 'notes.txt' } }] };
      },
    });
    try {
      writeFileSync(join(dirs.cwd, 'notes.txt'), 'a note\n');
      const r = await runJarvis(['-p', 'read the notes'], {
        env: cliEnv(dirs, mockModelEnv(breaking.baseUrlFor('openai'))),
        cwd: dirs.cwd,
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /Could not write the session journal \S+\/agents\/main\/wire\.jsonl \(a folder is in its place\)/,
      );
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(requests).toBe(1); // no request after the failure
    } finally {
      await breaking.close();
    }
  });
});
