// The browser profile's engine parts (docs/browser.md): the `agent` tool and its three sub-agent types,
// the `prompt` summaries of web_fetch, and the browser choice surviving a resume. No tab is opened, so
// no browser starts here (the Chromium tests are in test/tools/browser/ and test/cli/).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type ModelRequest } from '../../../src/llm/types';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import type { BrowserRuntimeOptions } from '../../../src/tools/browser';
import { serve, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

let site: FixtureServer;
beforeAll(async () => {
  const article = `<html><head><title>Prices</title></head><body><main><h1>Price list</h1><p>${'Apples cost 3 euros. '.repeat(80)}</p><p>TAIL-MARKER pears cost 5 euros.</p></main></body></html>`;
  site = await startFixtureServer({ '/prices.html': serve(article, 'text/html') });
});
afterAll(async () => {
  await site.close();
});

function browser(
  profile: BrowserRuntimeOptions['profile'],
  extra: Partial<BrowserRuntimeOptions> = {},
): BrowserRuntimeOptions {
  return {
    profile,
    workspaceDir: mkdtempSync(join(tmpdir(), 'jarvis-ws-')),
    engine: { engine: 'duckduckgo', baseUrls: {} },
    ...extra,
  };
}

const SUMMARY = /^You extract information from a web page/;
/** Which agent sent a request: `main`, a sub-agent type, or `summary`. */
const roleOf = (req: ModelRequest) =>
  SUMMARY.test(req.system) ? 'summary' : (/sub-agent \((\w+)\)/.exec(req.system)?.[1] ?? 'main');
const firstUserText = (req: ModelRequest) => {
  const first = req.messages.find((m) => m.role === 'user');
  return first?.role === 'user' ? first.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
};
const hasToolResult = (req: ModelRequest) => req.messages.some((m) => m.role === 'tool');

/** The main agent answers `first`, then "main done"; sub-agents and the summarizer answer through `other`. */
function script(first: ScriptedResponse, other: (req: ModelRequest) => ScriptedResponse) {
  return (req: ModelRequest): ScriptedResponse =>
    roleOf(req) !== 'main' ? other(req) : hasToolResult(req) ? { text: 'main done' } : first;
}

describe('the browser profile `agent` tool (researcher / page_operator / general)', () => {
  it('runs two sub-agents of one response, each with its own tools, prompt and checklist; answers [agentId] + the final text', async () => {
    const h = makeEngine({
      mode: 'yolo',
      browser: browser('agent'),
      responses: script(
        {
          toolCalls: [
            { name: 'create_task', arguments: { subject: 'parent task' } },
            { name: 'agent', arguments: { prompt: 'find the price', type: 'researcher', description: 'research' } },
            { name: 'agent', arguments: { prompt: 'fill the form', type: 'page_operator', tab_id: 3 } },
          ],
        },
        (req) => {
          const role = roleOf(req);
          if (hasToolResult(req)) return { text: `${role} final answer` };
          // Each sub-agent tries a tool outside its set first, and creates a task in its own checklist.
          return role === 'researcher'
            ? {
                text: 'intermediate words',
                toolCalls: [
                  { name: 'execute_script', arguments: { code: 'return 1', target: 'sandbox' } },
                  { name: 'create_task', arguments: { subject: 'child task' } },
                ],
              }
            : { toolCalls: [{ name: 'web_search', arguments: { query: 'x' } }] };
        },
      ),
    });
    await runPrompt(h, 'go');
    const reqs = h.client.requests;
    const toolsOf = (role: string) =>
      reqs
        .find((r) => roleOf(r) === role)!
        .tools.map((t) => t.name)
        .sort();
    expect(toolsOf('main')).toContain('agent');
    expect(toolsOf('researcher')).toEqual([
      'close_tab',
      'create_task',
      'get_tab_content',
      'list_tabs',
      'list_tasks',
      'open_tab',
      'opfs_delete',
      'opfs_list',
      'opfs_read',
      'opfs_write',
      'update_task',
      'web_fetch',
      'web_search',
    ]);
    expect(toolsOf('page_operator')).toEqual([
      'activate_tab',
      'close_tab',
      'create_task',
      'execute_script',
      'get_tab_content',
      'list_tabs',
      'list_tasks',
      'open_tab',
      'opfs_delete',
      'opfs_list',
      'opfs_read',
      'opfs_write',
      'update_task',
      'web_fetch',
    ]);
    // The main agent's prompt is the browser agent's; each type has its role.
    expect(reqs.find((r) => roleOf(r) === 'main')!.system).toContain('AI agent that works on the web');
    expect(reqs.find((r) => roleOf(r) === 'page_operator')!.system).toContain('You operate web pages');
    // tab_id becomes a context line before the task.
    expect(firstUserText(reqs.find((r) => roleOf(r) === 'page_operator')!)).toMatch(
      /^Work in the already open browser tab with tab_id 3;[\s\S]*fill the form$/,
    );
    const results = h.eventsOf('tool_result');
    const researcherTools = results.filter((r) => r.agentId !== 'main');
    expect(researcherTools.find((r) => r.toolName === 'execute_script')).toMatchObject({
      isError: true,
      text: expect.stringContaining('Unknown tool "execute_script"'),
    });
    expect(researcherTools.find((r) => r.toolName === 'web_search')).toMatchObject({
      isError: true,
      text: expect.stringContaining('Unknown tool "web_search"'),
    });
    // Its own checklist: the sub-agent's first task is "1" although the parent already has one.
    expect(JSON.parse(researcherTools.find((r) => r.toolName === 'create_task')!.text)).toMatchObject({
      id: '1',
      subject: 'child task',
    });
    const answers = results.filter((r) => r.agentId === 'main' && r.toolName === 'agent');
    expect(answers).toHaveLength(2);
    for (const [i, role] of ['researcher', 'page_operator'].entries()) {
      expect(answers[i].isError).toBe(false);
      // Only the final round's text, never the earlier "intermediate words".
      expect(answers[i].text).toMatch(new RegExp(`^\\[agentId: [\\w-]+\\]\\n\\n${role} final answer$`));
    }
    // Both ran in the same response: the second started before the first finished.
    const changes = h.eventsOf('subagent').map((e) => e.change);
    expect(changes.slice(0, 2)).toEqual(['started', 'started']);
  });

  it('general gets every tool but ask_user and agent; an unknown type is refused; an empty answer said', async () => {
    const h = makeEngine({
      mode: 'yolo',
      browser: browser('agent'),
      responses: script(
        {
          toolCalls: [
            { name: 'agent', arguments: { prompt: 'do it' } },
            { name: 'agent', arguments: { prompt: 'x', type: 'wizard' } },
          ],
        },
        () => ({ text: '' }),
      ),
    });
    await runPrompt(h, 'go');
    const general = h.client.requests.find((r) => roleOf(r) === 'general')!.tools.map((t) => t.name);
    expect(general).toEqual(
      expect.arrayContaining(['web_fetch', 'execute_script', 'open_tab', 'opfs_write', 'create_task']),
    );
    expect(general).not.toContain('agent');
    expect(general).not.toContain('ask_user');
    const [ok, wizard] = h.eventsOf('tool_result').filter((r) => r.toolName === 'agent');
    // A sub-agent that only ever answers empty is asked again, then fails, and the answer says why.
    const noOutput = /^\[agentId: [\w-]+\]\n\n\(sub-agent produced no output\)\n\n\[The sub-agent did not finish: /;
    expect(ok.text).toMatch(noOutput);
    expect(ok.text).toContain('empty answer (no text and no tool call) 3 times in a row');
    expect(wizard).toMatchObject({
      isError: true,
      text: expect.stringContaining('type must be one of researcher, page_operator, general'),
    });
  });

  it('a sub-agent past its time limit is stopped; the answer says it timed out', async () => {
    const h = makeEngine({
      mode: 'yolo',
      browser: browser('agent', { subagentTimeoutMs: 300 }),
      responses: script({ toolCalls: [{ name: 'agent', arguments: { prompt: 'slow', type: 'researcher' } }] }, () => ({
        text: 'partial findings',
        hangAfterText: true,
      })),
    });
    await runPrompt(h, 'go');
    const [answer] = h.eventsOf('tool_result').filter((r) => r.toolName === 'agent');
    expect(answer.isError).toBe(false);
    expect(answer.text).toMatch(
      /^\[agentId: [\w-]+\]\n\n[\s\S]*\[The sub-agent timed out after 0\.3 s; the text above is what it had so far\.\]$/,
    );
  });
});

describe('web_fetch prompt summaries', () => {
  it('cuts to max_length first, sends prompt --- content to the summary model, answers with its text (not truncated)', async () => {
    const h = makeEngine({
      mode: 'yolo',
      web: { allowPrivateNetwork: true },
      browser: browser('agent'),
      responses: script(
        {
          toolCalls: [
            {
              name: 'web_fetch',
              arguments: { url: `${site.url}/prices.html`, prompt: 'What do apples cost?', max_length: 200 },
            },
          ],
        },
        () => ({ text: 'Apples: 3 euros.' }),
      ),
    });
    await runPrompt(h, 'go');
    const summaryRequest = h.client.requests.find((r) => roleOf(r) === 'summary')!;
    expect(summaryRequest.tools).toEqual([]);
    const sent = firstUserText(summaryRequest);
    expect(sent.startsWith('What do apples cost?\n\n---\n\n## Price list')).toBe(true);
    expect(sent).not.toContain('TAIL-MARKER');
    const [result] = h.eventsOf('tool_result').filter((r) => r.toolName === 'web_fetch');
    expect(JSON.parse(result.text)).toMatchObject({
      url: `${site.url}/prices.html`,
      content: 'Apples: 3 euros.',
      truncated: false,
      content_type: 'text/html',
    });
  });

  it('a summary model failure and content too large for it are clear errors', async () => {
    const h = makeEngine({
      mode: 'yolo',
      web: { allowPrivateNetwork: true },
      model: { maxContextSize: 4_396, maxOutputSize: 4_096 },
      browser: browser('agent'),
      responses: script(
        {
          toolCalls: [
            { name: 'web_fetch', arguments: { url: `${site.url}/prices.html`, prompt: 'everything' } },
            { name: 'web_fetch', arguments: { url: `${site.url}/prices.html`, prompt: 'short', max_length: 50 } },
          ],
        },
        () => ({ error: new ProviderError('server', 'HTTP 503 upstream down') }),
      ),
    });
    await runPrompt(h, 'go');
    const [tooLarge, failed] = h
      .eventsOf('tool_result')
      .filter((r) => r.toolName === 'web_fetch')
      .map((r) => JSON.parse(r.text) as { error: string });
    expect(tooLarge.error).toMatch(
      /^context_too_large: the content \(about \d+ tokens\) does not fit the summary model test \(300 tokens for input\)\. Pass a smaller max_length/,
    );
    expect(failed.error).toMatch(/^The summary model test failed: .*503.*Call again without prompt/);
    // Only the second call reached the model; the first was refused before any request.
    expect(h.client.requests.filter((r) => roleOf(r) === 'summary')).toHaveLength(1);
  });
});

describe('the browser choice is kept in the journal', () => {
  it('--agent browser and --browser survive a resume that does not repeat them', async () => {
    for (const profile of ['agent', 'page-tools'] as const) {
      const first = makeEngine({ mode: 'yolo', browser: browser(profile), responses: [{ text: 'hi' }] });
      await runPrompt(first, 'hello');
      const toolsBefore = first.runtime.agent.tools.map((t) => t.name).sort();
      await first.runtime.close();
      const resumed = makeEngine({
        mode: 'yolo',
        dirs: { home: first.home, cwd: first.cwd },
        resume: first.runtime.session.location,
        browser: browser(undefined),
        responses: [{ text: 'again' }],
      });
      await runPrompt(resumed, 'more');
      expect(resumed.runtime.session.state.browser).toBe(profile);
      expect(resumed.runtime.agent.tools.map((t) => t.name).sort()).toEqual(toolsBefore);
      expect(toolsBefore).toContain(profile === 'agent' ? 'opfs_write' : 'Bash');
      expect(toolsBefore).toContain('get_tab_content');
      expect(resumed.client.requests[0].system).toBe(first.client.requests[0].system);
      await resumed.runtime.close();
    }
  });

  it('a session without browser tools stays without them; --browser on a resume adds the page tools for good', async () => {
    const first = makeEngine({ mode: 'yolo', browser: browser(undefined), responses: [{ text: 'hi' }] });
    await runPrompt(first, 'hello');
    expect(first.runtime.agent.tools.map((t) => t.name)).not.toContain('list_tabs');
    await first.runtime.close();
    const withBrowser = makeEngine({
      mode: 'yolo',
      dirs: { home: first.home, cwd: first.cwd },
      resume: first.runtime.session.location,
      browser: browser('page-tools'),
      responses: [],
    });
    expect(withBrowser.runtime.agent.tools.map((t) => t.name)).toContain('list_tabs');
    await withBrowser.runtime.close();
    const again = makeEngine({
      mode: 'yolo',
      dirs: { home: first.home, cwd: first.cwd },
      resume: first.runtime.session.location,
      browser: browser(undefined),
      responses: [],
    });
    expect(again.runtime.agent.tools.map((t) => t.name)).toContain('list_tabs');
    await again.runtime.close();
  });
});
