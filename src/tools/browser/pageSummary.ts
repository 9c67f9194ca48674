// The `prompt` of web_fetch and get_tab_content (docs/browser.md): the page text, already cut to
// `max_length`, goes to the summary model (`[browser] summary_model`, default: the session's model)
// with no tools, and the model's extraction replaces the content. Refused before any request when the
// text cannot fit the summary model's input window.
import { toProviderError } from '../../llm/providerErrors';
import { estimateTokens } from '../../llm/tokens';
import type { ModelClient, ModelRequest, ResolvedModel } from '../../llm/types';
import { serviceKey } from '../defineTool';
import systemPrompt from './pageSummary.md';

export interface PageSummarizer {
  /** The extraction `prompt` asks for; throws an Error whose message is for the model. */
  summarize(prompt: string, content: string, signal: AbortSignal): Promise<string>;
}

export const SUMMARY_SERVICE = serviceKey<PageSummarizer>()('page-summary');

/** Room kept for the summary itself when the model does not say how long its answers may be. */
const DEFAULT_SUMMARY_OUTPUT_TOKENS = 4_096;

/** A summarizer on `binding()` — read at each call, so the session's model follows /model. */
export function modelSummarizer(
  binding: () => { model: ResolvedModel; client(): Promise<ModelClient> },
): PageSummarizer {
  return {
    async summarize(prompt, content, signal) {
      const { model, client } = binding();
      const userText = `${prompt}\n\n---\n\n${content}`;
      const request: ModelRequest = {
        system: systemPrompt.trim(),
        messages: [{ role: 'user', content: [{ type: 'text', text: userText }] }],
        tools: [],
        params: {},
      };
      const window = model.maxInputSize ?? model.maxContextSize;
      const budget = window - (model.maxOutputSize ?? DEFAULT_SUMMARY_OUTPUT_TOKENS);
      const needed = estimateTokens(request.system) + estimateTokens(userText);
      if (needed > budget) {
        throw new Error(
          `context_too_large: the content (about ${needed} tokens) does not fit the summary model ${model.alias} (${budget} tokens for input). Pass a smaller max_length or a selector, or leave out prompt to get the text itself.`,
        );
      }
      let text = '';
      try {
        for await (const part of (await client()).stream(request, signal)) if (part.type === 'text') text += part.delta;
      } catch (e) {
        if (signal.aborted) throw e;
        const error = toProviderError(e, {
          providerName: model.providerName,
          providerType: model.providerType,
          model: model.model,
        });
        throw new Error(
          `The summary model ${model.alias} failed: ${error.message.split('\n')[0]}. Call again without prompt to get the text itself.`,
        );
      }
      if (!text.trim())
        throw new Error(
          `The summary model ${model.alias} returned no text. Call again without prompt to get the text itself.`,
        );
      return text.trim();
    },
  };
}

/**
 * What a page tool returns for `content` (already cut to `max_length`) and `prompt`: the content as is
 * without a prompt, else the summary — reported as not truncated, since the summary is complete.
 */
export async function answerPrompt(
  summarizer: PageSummarizer | undefined,
  prompt: string | undefined,
  content: string,
  truncated: boolean,
  signal: AbortSignal,
): Promise<{ content: string; truncated: boolean }> {
  if (prompt === undefined) return { content, truncated };
  if (!summarizer)
    throw new Error('prompt needs a summary model, and none is available in this session; call again without prompt.');
  return { content: await summarizer.summarize(prompt, content, signal), truncated: false };
}
