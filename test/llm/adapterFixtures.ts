// Shared fixtures for the provider adapter tests: a resolved model pointing at the mock server, and
// helpers that drain a stream into its parts or into the ProviderError it threw.

import { createModelClient, type ModelClientOptions } from '../../src/llm/createModelClient';
import {
  ProviderError,
  type ModelClient,
  type ModelRequest,
  type ProviderType,
  type ResolvedModel,
  type StreamPart,
} from '../../src/llm/types';
import type { MockModelServer } from '../helpers/mockModelServer';

export const PROVIDER_TYPES_UNDER_TEST: ProviderType[] = ['openai', 'kimi', 'openai_responses', 'anthropic'];

export function resolvedFor(
  type: ProviderType,
  server: MockModelServer,
  overrides: Partial<ResolvedModel> = {},
): ResolvedModel {
  const model = type === 'anthropic' ? 'claude-sonnet-4-5' : type === 'kimi' ? 'kimi-k2-thinking' : 'gpt-mock';
  return {
    alias: `mock-${type}`,
    providerName: `mock_${type}`,
    providerType: type,
    model,
    apiKey: 'sk-test-key',
    baseUrl: server.baseUrlFor(type),
    maxContextSize: 200_000,
    capabilities: ['thinking', 'image_in', 'tool_use'],
    displayName: model,
    ...overrides,
  };
}

export function clientFor(
  type: ProviderType,
  server: MockModelServer,
  overrides: Partial<ResolvedModel> = {},
  options: ModelClientOptions = {},
): Promise<ModelClient> {
  return createModelClient(resolvedFor(type, server, overrides), { userAgentVersion: '9.9.9-test', ...options });
}

export function simpleRequest(text = 'hello', extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a test.',
    messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    tools: [],
    params: {},
    ...extra,
  };
}

export async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Drains the stream and returns the ProviderError it threw (fails if it threw something else or nothing). */
export async function failure(stream: AsyncIterable<StreamPart>): Promise<ProviderError> {
  try {
    await collect(stream);
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw new Error(`expected a ProviderError, got ${String(err)}`, { cause: err });
  }
  throw new Error('expected the stream to fail, but it completed');
}

export function textOf(parts: StreamPart[], type: 'text' | 'thinking' = 'text'): string {
  return parts.flatMap((p) => (p.type === type ? [p.delta] : [])).join('');
}
