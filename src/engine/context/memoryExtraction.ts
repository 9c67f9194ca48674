// Automatic memory extraction (docs/memory.md "Automatic extraction"): after every completed turn of
// any agent, one side request asks the model which facts of the new part of the conversation are worth
// keeping; up to 8 drafts come back, are sanitized (limits, credentials), deduplicated within this run
// and against the visible catalog, and stored in `project` (trusted workspace) or `workspace` scope —
// never `user`. A failure that may pass (a provider hiccup, a busy or full disk) is retried after a
// later completed turn; a terminal one (a limit, a credential, an untrusted workspace) drops the draft.
// Extraction runs in the background, one request at a time; closing the runtime waits for it and runs
// it once more for what the last turns added — up to `extraction_exit_timeout_ms`, then it is stopped.
// No request is made for an exchange too short to hold a fact (MIN_MEMORABLE_CHARS), nor at close to a
// provider that has just failed the agent's last turn.
import type { Message, ModelRequest } from '../../llm/types';
import { toProviderError } from '../../llm/providerErrors';
import { estimateTokens } from '../../llm/tokens';
import { MemoryError, memoryDraftProblem, type MemoryRecord, type MemoryStore } from '../../store/memoryStore';
import { MAIN_AGENT_ID, type EngineEvent } from '../loop/events';
import type { Agent, TurnExtension } from '../loop/loop';
import extractionPrompt from './memoryExtraction.md';
import { RECALL_BLOCK, type MemorySettings } from './memoryRecall';
import { renderPromptTemplate } from './systemPrompt';

export const MAX_DRAFTS_PER_EXTRACTION = 8;
/** How much of the new conversation one extraction reads (the most recent part wins). */
const TRANSCRIPT_TOKENS = 6_000;
/** How much of the visible catalog the model is shown, to avoid proposing what is known. */
const CATALOG_CHARS = 4_000;
const TOOL_RESULT_CHARS = 400;
export const DEFAULT_EXTRACTION_EXIT_TIMEOUT_MS = 5_000;

/** Prompts that state nothing: a greeting, a thanks, a yes or no (compared without case and punctuation). */
const SMALL_TALK = new Set([
  'hi',
  'hello',
  'hey',
  'yo',
  'thanks',
  'thank you',
  'thx',
  'ok',
  'okay',
  'yes',
  'no',
  'bye',
  'good morning',
  'good evening',
  'test',
  'ping',
]);

function userText(messages: readonly Message[]): string {
  return messages
    .filter((m): m is Extract<Message, { role: 'user' }> => m.role === 'user')
    .map((m) => partsText(m).replace(RECALL_BLOCK, ''))
    .join(' ');
}

/**
 * Whether these new messages may hold something worth remembering; when not, no request is made. They
 * hold nothing when no answer came (the turn failed before the model said anything), or when everything
 * the user wrote is small talk (`hi`, `thanks!`, `ok`) and no tool ran.
 */
export function mayHoldMemories(messages: readonly Message[]): boolean {
  if (!messages.some((m) => m.role === 'assistant' || m.role === 'tool')) return false;
  if (messages.some((m) => m.role === 'tool' || (m.role === 'assistant' && m.toolCalls?.length))) return true;
  const said = userText(messages)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return said !== '' && !SMALL_TALK.has(said);
}

export interface MemoryDraftInput {
  name: string;
  description: string;
  body: string;
}

/** Drafts from the model's answer: the first JSON object or array in it; anything malformed is skipped. */
export function parseDrafts(text: string): MemoryDraftInput[] {
  const start = text.search(/[[{]/);
  if (start < 0) return [];
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, Math.max(text.lastIndexOf('}'), text.lastIndexOf(']')) + 1));
  } catch {
    return [];
  }
  const list = Array.isArray(value) ? value : (value as { memories?: unknown } | null)?.memories;
  if (!Array.isArray(list)) return [];
  const drafts: MemoryDraftInput[] = [];
  for (const item of list) {
    const d = item as Partial<Record<keyof MemoryDraftInput, unknown>> | null;
    if (!d || typeof d.name !== 'string' || typeof d.body !== 'string') continue;
    const name = d.name.trim();
    const body = d.body.trim();
    if (!name || !body) continue;
    drafts.push({ name, description: typeof d.description === 'string' ? d.description.trim() : '', body });
  }
  return drafts.slice(0, MAX_DRAFTS_PER_EXTRACTION);
}

const normalized = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

function partsText(m: Extract<Message, { role: 'user' | 'tool' }>): string {
  return m.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
}

/** The new messages as plain text, without recalled memories (they are not new facts), newest kept. */
export function extractionTranscript(messages: readonly Message[]): string {
  const blocks = messages.map((m) => {
    if (m.role === 'user') return `[user]\n${partsText(m).replace(RECALL_BLOCK, '').trim()}`;
    if (m.role === 'tool') {
      const text = partsText(m);
      return `[tool result: ${m.toolName}${m.isError ? ', error' : ''}]\n${text.length > TOOL_RESULT_CHARS ? `${text.slice(0, TOOL_RESULT_CHARS)}…` : text}`;
    }
    const calls = (m.toolCalls ?? []).map((c) => `[tool call: ${c.name}] ${c.arguments.slice(0, TOOL_RESULT_CHARS)}`);
    return ['[assistant]', m.text, ...calls].filter(Boolean).join('\n');
  });
  const kept: string[] = [];
  let tokens = 0;
  for (let i = blocks.length - 1; i >= 0; i--) {
    tokens += estimateTokens(blocks[i]);
    if (tokens > TRANSCRIPT_TOKENS && kept.length) break;
    kept.unshift(blocks[i]);
  }
  return kept.join('\n\n');
}

function catalogText(records: readonly MemoryRecord[]): string {
  const lines: string[] = [];
  let size = 0;
  for (const r of records) {
    const line = `- ${r.name}: ${r.description || r.body}`.slice(0, 200);
    size += line.length;
    if (size > CATALOG_CHARS) break;
    lines.push(line);
  }
  return lines.length ? lines.join('\n') : '(none yet)';
}

interface PendingDraft {
  draft: MemoryDraftInput;
  mainAgent: boolean;
}

export interface MemoryExtractorOptions {
  store: MemoryStore;
  settings: MemorySettings;
  emit(event: EngineEvent): void;
}

export class MemoryExtractor {
  /** Per agent: how many of its messages were already read by an extraction. */
  private readonly cursors = new Map<string, number>();
  private readonly agents = new Map<string, Agent>();
  /** Names and bodies stored (or known) in this run, so the same fact is not saved twice. */
  private readonly seen = new Set<string>();
  private retries: PendingDraft[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly abort = new AbortController();
  private closed = false;
  /** Agents whose last turn failed (a provider error): the closing extraction does not ask that provider. */
  private readonly failedLast = new Set<string>();

  constructor(private readonly opts: MemoryExtractorOptions) {}

  /** The turn extension every agent runs: schedules an extraction after each completed turn. */
  readonly extension: TurnExtension = {
    afterTurn: (agent, outcome) => {
      if (!this.opts.settings.extractionEnabled || this.closed) return;
      this.track(agent);
      if (outcome.reason === 'failed') this.failedLast.add(agent.id);
      else this.failedLast.delete(agent.id);
      if (outcome.reason === 'completed') void this.schedule(agent);
    },
  };

  /**
   * An agent whose conversation the closing extraction reads even if none of its turns completed.
   * `fromNow`: what it holds already (a resumed session's history) was read by the run that made it.
   */
  track(agent: Agent, fromNow = false): void {
    this.agents.set(agent.id, agent);
    if (fromNow && !this.cursors.has(agent.id)) this.cursors.set(agent.id, agent.session.state.messages.length);
  }

  private schedule(agent: Agent, ask = true): Promise<void> {
    this.queue = this.queue
      .then(() => this.extract(agent, ask))
      .catch((e: unknown) => this.warn(`memory extraction failed: ${e instanceof Error ? e.message : String(e)}`));
    return this.queue;
  }

  /**
   * Waits for running extractions; then (unless forced) one more for what each agent's last turns added.
   * The whole wait is bounded by `extractionExitTimeoutMs`; what is still running then is stopped.
   */
  async close(opts: { force?: boolean } = {}): Promise<void> {
    if (this.closed) return this.queue;
    this.closed = true;
    if (opts.force) this.abort.abort();
    const work = (async () => {
      await this.queue;
      if (opts.force || !this.opts.settings.extractionEnabled) return;
      for (const agent of this.agents.values()) await this.schedule(agent, !this.failedLast.has(agent.id));
    })();
    const limitMs = this.opts.settings.extractionExitTimeoutMs ?? DEFAULT_EXTRACTION_EXIT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), limitMs)));
    const timedOut = await Promise.race([work.then(() => false), expired]);
    clearTimeout(timer);
    if (!timedOut) return;
    this.abort.abort();
    await work;
    this.warn(
      `memory extraction did not finish within ${limitMs} ms of closing and was stopped ` +
        '([memory] extraction_exit_timeout_ms); the session is saved, only the facts it would have kept are not.',
    );
  }

  private warn(text: string): void {
    this.opts.emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID });
  }

  private async extract(agent: Agent, ask = true): Promise<void> {
    const messages = agent.session.state.messages;
    // A compaction replaces messages with a note: what was read before is gone, start over from it.
    const from = Math.min(this.cursors.get(agent.id) ?? 0, messages.length);
    const mainAgent = agent.id === MAIN_AGENT_ID;
    const drafts: PendingDraft[] = this.retries.splice(0);
    const fresh = messages.slice(from);
    if (ask && fresh.length && !mayHoldMemories(fresh)) {
      // Small talk is read and done with; a part without an answer yet is read with the next turn's.
      if (fresh.some((m) => m.role === 'assistant')) this.cursors.set(agent.id, messages.length);
    } else if (ask && fresh.length) {
      const answer = await this.ask(agent, messages.slice(from));
      // A transient provider failure leaves the cursor: the next completed turn reads these messages again.
      if (answer === undefined) {
        this.retries.push(...drafts);
        return;
      }
      this.cursors.set(agent.id, messages.length);
      drafts.push(...parseDrafts(answer).map((draft) => ({ draft, mainAgent })));
    }
    await this.persist(drafts);
  }

  /** The model's answer text, or undefined after a failure worth retrying later. Terminal failures answer "". */
  private async ask(agent: Agent, messages: readonly Message[]): Promise<string | undefined> {
    const request: ModelRequest = {
      system: renderPromptTemplate(extractionPrompt, { max_drafts: String(MAX_DRAFTS_PER_EXTRACTION) }).trim(),
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: `<known-memories>\n${catalogText(this.opts.store.list().records)}\n</known-memories>\n\n<conversation>\n${extractionTranscript(messages)}\n</conversation>`,
            },
          ],
        },
      ],
      tools: [],
      params: {},
    };
    let text = '';
    try {
      const client = await agent.client();
      for await (const part of client.stream(request, this.abort.signal)) if (part.type === 'text') text += part.delta;
      return text;
    } catch (e) {
      if (this.abort.signal.aborted) return '';
      const model = agent.model;
      const error = toProviderError(e, {
        providerName: model.providerName,
        providerType: model.providerType,
        model: model.model,
      });
      return error.retryable ? undefined : '';
    }
  }

  private async persist(drafts: readonly PendingDraft[]): Promise<void> {
    const store = this.opts.store;
    const visible = store.list().records;
    for (const r of visible) this.seen.add(`name:${normalized(r.name)}`).add(`body:${normalized(r.body)}`);
    const saved: string[] = [];
    for (const pending of drafts) {
      const { draft } = pending;
      const keys = [`name:${normalized(draft.name)}`, `body:${normalized(draft.body)}`];
      if (keys.some((k) => this.seen.has(k)) || memoryDraftProblem(draft)) continue;
      try {
        // Never user scope: project where the folder is trusted, else this folder's workspace memory.
        await store.remember(
          { scope: store.trusted ? 'project' : 'workspace', ...draft },
          { mainAgent: pending.mainAgent, origin: 'extraction' },
        );
        for (const k of keys) this.seen.add(k);
        saved.push(draft.name);
      } catch (e) {
        if (!(e instanceof MemoryError)) throw e;
        if (!e.terminal) this.retries.push(pending);
      }
    }
    if (saved.length)
      this.opts.emit({
        type: 'notice',
        level: 'info',
        text: `Remembered ${saved.length === 1 ? `"${saved[0]}"` : `${saved.length} facts: ${saved.map((n) => `"${n}"`).join(', ')}`} (${store.trusted ? 'project' : 'workspace'} memory).`,
        agentId: MAIN_AGENT_ID,
      });
  }
}
