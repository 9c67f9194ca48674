// A ModelClient that plays scripted responses in-process: used by engine tests and by replaying a
// recorded conversation. Each `stream` call consumes the next scripted response.
import {
  ProviderError,
  type FinishReason,
  type ModelClient,
  type ModelRequest,
  type ProviderType,
  type StreamPart,
  type ToolCall,
  type Usage,
} from './types';

export interface ScriptedResponse {
  text?: string;
  thinking?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
  usage?: Usage;
  /** Thrown instead of answering (after any text given above was streamed). */
  error?: ProviderError;
  /** Milliseconds between streamed pieces; the stream honours the abort signal while waiting. */
  delayMs?: number;
  /** Stream the text, then wait until aborted (for interrupt tests). */
  hangAfterText?: boolean;
  /** The finish reason (default: tool_calls with calls, else stop); `length` plays a response cut off by the limit. */
  finish?: FinishReason;
}

export class ScriptedClient implements ModelClient {
  readonly providerType: ProviderType = 'openai';
  readonly model = 'scripted';
  readonly requests: ModelRequest[] = [];
  private next = 0;

  constructor(
    private readonly responses: ScriptedResponse[] | ((request: ModelRequest, index: number) => ScriptedResponse),
  ) {}

  get remaining(): number {
    return Array.isArray(this.responses) ? this.responses.length - this.next : Infinity;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart> {
    this.requests.push(structuredClone(request));
    const index = this.next++;
    const r = Array.isArray(this.responses) ? this.responses[index] : this.responses(request, index);
    if (!r) throw new ProviderError('server', `scripted client: no response scripted for request ${index + 1}`);
    const pause = async (ms: number) => {
      if (signal.aborted) throw new ProviderError('aborted', 'cancelled');
      if (ms <= 0) return;
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, ms);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            reject(new ProviderError('aborted', 'cancelled'));
          },
          { once: true },
        );
      });
    };
    if (r.thinking) {
      await pause(r.delayMs ?? 0);
      yield { type: 'thinking', delta: r.thinking };
    }
    if (r.text) {
      for (const piece of r.text.match(/[\s\S]{1,8}/g) ?? []) {
        await pause(r.delayMs ?? 0);
        yield { type: 'text', delta: piece };
      }
    }
    if (r.hangAfterText) await pause(2_147_483_647);
    if (r.error) throw r.error;
    for (const [i, c] of (r.toolCalls ?? []).entries()) {
      const call: ToolCall = {
        id: c.id ?? `call_${index}_${i}`,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
      };
      yield { type: 'tool_call_start', id: call.id, name: call.name };
      yield { type: 'tool_call', call };
    }
    yield { type: 'usage', usage: r.usage ?? { inputTokens: 100, outputTokens: 10 } };
    yield { type: 'finish', reason: r.finish ?? (r.toolCalls?.length ? 'tool_calls' : 'stop') };
  }
}
