import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapterSettings, createModelClient, DEFAULT_REQUEST_TIMEOUT_MS } from '../../src/llm/createModelClient';
import type { ResolvedModel } from '../../src/llm/types';
import { startMockModelServer } from '../helpers/mockModelServer';

const base: ResolvedModel = {
  alias: 'a',
  providerName: 'p',
  providerType: 'openai',
  model: 'm',
  apiKey: 'k',
  maxContextSize: 1000,
  capabilities: [],
  displayName: 'm',
};

describe('createModelClient', () => {
  it.each(['openai', 'kimi', 'openai_responses', 'anthropic'] as const)('builds a %s client', async (providerType) => {
    const client = await createModelClient({ ...base, providerType });
    expect(client.providerType).toBe(providerType);
    expect(client.model).toBe('m');
  });

  it('rejects an unknown provider type', async () => {
    await expect(createModelClient({ ...base, providerType: 'nope' as never })).rejects.toThrow(
      /Unsupported provider type "nope"/,
    );
  });

  it.each(['', '/v1', '/v1/', '/'])('an anthropic base URL ending in %j reaches /v1/messages', async (tail) => {
    const server = await startMockModelServer({ turns: [{ text: 'hi' }] });
    try {
      const client = await createModelClient({ ...base, providerType: 'anthropic', baseUrl: `${server.url}${tail}` });
      const parts: string[] = [];
      const content = [{ type: 'text' as const, text: 'x' }];
      const request = { system: '', messages: [{ role: 'user' as const, content }] };
      for await (const part of client.stream({ ...request, tools: [], params: {} }, new AbortController().signal)) {
        if (part.type === 'text') parts.push(part.delta);
      }
      expect(parts.join('')).toBe('hi');
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/messages']);
    } finally {
      await server.close();
    }
  });

  it('fills in defaults', () => {
    const s = adapterSettings({ userAgentVersion: '1.2.3', env: {} });
    expect(s).toMatchObject({ userAgent: 'jarvis-code/1.2.3', timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS });
  });

  // The bundle inlines the adapters (no code splitting), so only a dynamic import keeps an SDK off the start path.
  it.each([
    'createModelClient',
    'openaiChat',
    'openaiResponses',
    'anthropic',
    'providerErrors',
    'retry',
    'tokens',
    'toolCallIds',
    'network',
    'version',
  ])('%s.ts imports no provider SDK (nor undici) at load time', (name) => {
    const source = readFileSync(new URL(`../../src/llm/${name}.ts`, import.meta.url), 'utf8');
    const staticSdkImports = source
      .split('\n')
      .filter((line) => /^import\s(?!type\b).*from\s+['"](openai|@anthropic-ai\/sdk|undici)/.test(line));
    expect(staticSdkImports).toEqual([]);
  });
});
