// A retry after a partly streamed answer in ACP (docs/acp.md "Retries"): chunks already sent cannot
// be taken back, so the retried attempt's repetition of them is held back and only what is new is
// sent; an attempt that says something else comes after a note that it replaces the cut-off one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { EventMapper, RETRY_REPLACES_NOTE } from '../../src/acp/sessionUpdates';
import type { EngineEvent } from '../../src/engine/loop/events';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv } from '../helpers/cli';
import { agentText, startAcpClient, type AcpTestClient } from '../helpers/acpClient';

const agentId = 'main';
const retry: EngineEvent = { type: 'retry', attempt: 1, maxAttempts: 3, delayMs: 10, error: 'stalled', agentId };

function shownText(updates: SessionUpdate[]): string {
  return updates
    .map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : ''))
    .join('');
}

function play(first: string[], second: string[]): string {
  const m = new EventMapper('/w');
  const out: SessionUpdate[] = [];
  for (const delta of first) out.push(...m.map({ type: 'text_delta', delta, agentId }));
  out.push(...m.map(retry));
  for (const delta of second) out.push(...m.map({ type: 'text_delta', delta, agentId }));
  out.push(...m.map({ type: 'assistant_message', text: second.join(''), toolCalls: [], agentId }));
  return shownText(out);
}

describe('ACP retries', () => {
  it('a retried answer that repeats the cut-off one shows once, as the journal keeps it', () => {
    expect(play(['The answer ', 'is 4'], ['The ', 'answer is', ' 42.'])).toBe('The answer is 42.');
  });

  it('a retried answer that says something else follows a note that it replaces the partial one', () => {
    const shown = play(['Let me think'], ['The answer ', 'is 42.']);
    expect(shown).toBe(`Let me think${RETRY_REPLACES_NOTE}The answer is 42.`);
  });

  it('a retried answer shorter than the partial one is said as a replacement at the end of the step', () => {
    const shown = play(['The answer is 42 and'], ['The answer']);
    expect(shown).toBe(`The answer is 42 and${RETRY_REPLACES_NOTE}The answer`);
  });

  it('without a retry every delta streams at once, and the next step starts afresh', () => {
    const m = new EventMapper('/w');
    expect(shownText(m.map({ type: 'text_delta', delta: 'one', agentId }))).toBe('one');
    m.map({ type: 'assistant_message', text: 'one', toolCalls: [], agentId });
    // A retry in a later step compares with that step's text only.
    expect(shownText(m.map(retry))).toBe('');
    expect(shownText(m.map({ type: 'text_delta', delta: 'two', agentId }))).toBe('two');
  });
});

describe('ACP retries, end to end', () => {
  let server: MockModelServer | undefined;
  let editor: AcpTestClient | undefined;
  afterEach(async () => {
    await editor?.close();
    await server?.close();
  });

  it('a stream that stalls part-way and is retried shows the answer once, as the session keeps it', async () => {
    server = await startMockModelServer();
    const dirs = makeCliDirs();
    // The first attempt streams part of its answer, then stalls until the idle time-out retries it.
    writeFileSync(join(dirs.home, 'config.toml'), '[loop_control]\nidle_timeout_s = 1\n');
    editor = await startAcpClient({ env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
    server.push({ text: 'The answer is 4', stall: true }, { text: 'The answer is 42.' });
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'what is the answer?' }],
    });
    expect(response.stopReason).toBe('end_turn');
    expect(server.requests).toHaveLength(2);
    expect(agentText(editor.updates, sessionId)).toBe('The answer is 42.');
  });
});
