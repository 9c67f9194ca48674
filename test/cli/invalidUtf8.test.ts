// A file with one invalid byte, end to end through `jarvis -p`: Read says so, Edit keeps the byte,
// Write refuses to overwrite.
import { readFileSync, writeFileSync } from 'node:fs';
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

function toolResults(index: number): string[] {
  return server.requests[index].body.messages
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => m.content);
}

describe('print mode on a file that is not valid UTF-8', () => {
  it('Read reports the line, Edit changes only its match, Write over it is refused', async () => {
    const dirs = makeCliDirs();
    const original = Buffer.concat([Buffer.from('one\ntwo '), Buffer.from([0xfe]), Buffer.from(' two\nthree\n')]);
    const file = join(dirs.cwd, 'legacy.txt');
    writeFileSync(file, original);
    const before = server.requests.length;
    server.push(
      { toolCalls: [{ id: 'r', name: 'Read', arguments: { path: 'legacy.txt' } }] },
      {
        toolCalls: [
          { id: 'e', name: 'Edit', arguments: { path: 'legacy.txt', old_string: 'three', new_string: 'THREE' } },
        ],
      },
      {
        toolCalls: [
          { id: 'w', name: 'Write', arguments: { path: 'legacy.txt', content: 'one\ntwo \uFFFD two\nTHREE\n' } },
        ],
      },
      { text: 'Done.' },
    );
    const r = await runJarvis(['-p', 'fix the file'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(toolResults(before + 1)[0]).toMatch(/Not valid UTF-8: the first byte that is not UTF-8 text is on line 2/);
    expect(toolResults(before + 2)[1]).toMatch(/Edited .*only the matched bytes changed/);
    expect(toolResults(before + 3)[2]).toMatch(/not valid UTF-8 .*line 2.*overwriting it would lose those bytes/);
    expect(
      readFileSync(file).equals(Buffer.from(original.toString('latin1').replace('three', 'THREE'), 'latin1')),
    ).toBe(true);
  });
});
