import { readFileSync } from 'node:fs';
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

const toolNames = (i: number) => (server.requests[i].body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);

describe('the browser profile from the command line', () => {
  it('--agent browser offers the browser tool set (and no coding tools); opfs_write lands in the workspace', async () => {
    const dirs = makeCliDirs();
    const before = server.requests.length;
    server.push({ toolCalls: [{ name: 'opfs_write', arguments: { path: '/notes/a.txt', content: 'hello' } }] }, { text: 'done' });
    const r = await runJarvis(['-p', 'save a note', '--agent', 'browser'], { env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
    expect(r.stderr).toContain('Wrote notes/a.txt');
    expect(r.code).toBe(0);
    expect(toolNames(before).sort()).toEqual(
      ['activate_tab', 'close_tab', 'create_task', 'execute_script', 'get_tab_content', 'list_tabs', 'list_tasks', 'open_tab', 'opfs_delete', 'opfs_list', 'opfs_read', 'opfs_write', 'update_task', 'web_fetch', 'web_search'],
    );
    expect(readFileSync(join(dirs.home, 'workspace', 'notes', 'a.txt'), 'utf8')).toBe('hello');
  });

  it('--browser adds the page tools to the default agent; without it there are none', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    let before = server.requests.length;
    server.push({ text: 'ok' });
    expect((await runJarvis(['-p', 'hi', '--browser'], { env, cwd: dirs.cwd })).code).toBe(0);
    const withBrowser = toolNames(before);
    expect(withBrowser).toEqual(expect.arrayContaining(['Read', 'Bash', 'list_tabs', 'open_tab', 'get_tab_content', 'execute_script']));
    expect(withBrowser).not.toContain('opfs_write');
    before = server.requests.length;
    server.push({ text: 'ok' });
    expect((await runJarvis(['-p', 'hi'], { env, cwd: dirs.cwd })).code).toBe(0);
    expect(toolNames(before)).not.toContain('list_tabs');
  });
});
