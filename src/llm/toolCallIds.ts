// Tool-call ids pair each call with its result. Some OpenAI-compatible servers omit them or reuse the
// same id ("call_0") for every call, which would make two results indistinguishable; every call we
// hand to the engine therefore gets a unique, non-empty id.

import { randomBytes } from 'node:crypto';
import type { ToolCall } from './types';

/** Hands out unique ids: keeps the provider's id when it is free, otherwise suffixes or generates one. */
export class ToolCallIdAllocator {
  private readonly used: Set<string>;

  constructor(taken: Iterable<string> = []) {
    this.used = new Set(taken);
  }

  allocate(rawId: string | undefined | null): string {
    const base = rawId?.trim() ? rawId.trim() : generateToolCallId();
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}_${n}`;
    this.used.add(id);
    return id;
  }
}

export function generateToolCallId(): string {
  return `call_${randomBytes(9).toString('base64url')}`;
}

/**
 * Returns the calls with unique, non-empty ids (order kept). `taken` holds ids already used earlier in
 * the conversation, so a server that restarts its numbering every response cannot collide with them.
 */
export function normalizeToolCallIds(calls: readonly ToolCall[], taken: Iterable<string> = []): ToolCall[] {
  const allocator = new ToolCallIdAllocator(taken);
  return calls.map((call) => {
    const id = allocator.allocate(call.id);
    return id === call.id ? call : { ...call, id };
  });
}
