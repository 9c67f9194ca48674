// The ten Brave tools (seed 001): offered only when active_search_provider = "brave" and a key is set.
// Each maps to one Brave Search API endpoint; local search and rich results take two calls (the web
// search hands back location ids / a callback key, the second endpoint answers with the details).
import { z } from 'zod';
import { defineTool, type Tool, type ToolContext, type ToolResult } from '../../defineTool';
import { asArray, asRecord, asText, at, formatHits, type SearchHit } from '../searchHttp';
import { WEB_SERVICE } from '../webService';
import { braveGet, bravePost, formatLlmContext, formatPlaces, joinParts, toHit, type BraveAccess } from './braveClient';
import answersText from './braveAnswers.md';
import imageText from './braveImageSearch.md';
import llmContextText from './braveLlmContext.md';
import localText from './braveLocalSearch.md';
import newsText from './braveNewsSearch.md';
import richText from './braveRichResults.md';
import spellcheckText from './braveSpellcheck.md';
import suggestText from './braveSuggest.md';
import videoText from './braveVideoSearch.md';
import webText from './braveWebSearch.md';

const query = z.string().trim().min(1, 'query must not be empty');
const count = (max: number) => z.number().int().min(1).max(max).optional();
const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'country is a 2-letter code such as US')
  .optional();
const freshness = z
  .string()
  .regex(
    /^(pd|pw|pm|py|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$/,
    'freshness is pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD',
  )
  .optional();
const present = (h: SearchHit | undefined): h is SearchHit => h !== undefined;

function access(ctx: ToolContext<typeof WEB_SERVICE>): BraveAccess {
  const web = ctx.services.get(WEB_SERVICE);
  if (!web.braveTools)
    throw new Error('Brave tools need active_search_provider = "brave" and [web.brave] api_key in config.toml.');
  return { ...web.braveTools, web, signal: ctx.signal };
}

/** Wraps a Brave call: the model sees service errors as tool errors, cancellation propagates. */
function braveTool<S extends z.ZodObject>(def: {
  name: string;
  description: string;
  maxCount?: number;
  schema: S;
  run(args: z.infer<S>, a: BraveAccess): Promise<string>;
}): Tool {
  return defineTool({
    name: def.name,
    services: [WEB_SERVICE],
    deferred: true,
    description: def.description,
    constants: def.maxCount ? { MAX_COUNT: def.maxCount } : {},
    schema: def.schema,
    readOnly: true,
    defaultApproval: 'auto',
    subject: (args) => `${def.name}(${(args as { query: string }).query})`,
    async execute(args, ctx): Promise<ToolResult> {
      try {
        return { content: await def.run(args, access(ctx)) };
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        return { content: (e as Error).message, isError: true };
      }
    },
  });
}

export const braveTools: Tool[] = [
  braveTool({
    name: 'BraveWebSearch',
    description: webText,
    maxCount: 20,
    schema: z.object({
      query,
      count: count(20),
      offset: z.number().int().min(0).max(9).optional(),
      country,
      search_lang: z.string().optional(),
      freshness,
    }),
    async run(a, b) {
      const data = await braveGet(b, '/web/search', {
        q: a.query,
        count: a.count ?? 10,
        offset: a.offset,
        country: a.country,
        search_lang: a.search_lang,
        freshness: a.freshness,
      });
      return formatHits(
        asArray(at(data, 'web.results'))
          .map((r) => toHit(r, 'description', (x) => asText(x.age)))
          .filter(present),
        `No results for "${a.query}".`,
      );
    },
  }),
  braveTool({
    name: 'BraveNewsSearch',
    description: newsText,
    maxCount: 50,
    schema: z.object({
      query,
      count: count(50),
      offset: z.number().int().min(0).max(9).optional(),
      country,
      freshness,
    }),
    async run(a, b) {
      const data = await braveGet(b, '/news/search', {
        q: a.query,
        count: a.count ?? 10,
        offset: a.offset,
        country: a.country,
        freshness: a.freshness,
      });
      const hits = asArray(asRecord(data).results)
        .map((r) => toHit(r, 'description', (x) => joinParts(asText(at(x, 'meta_url.hostname')), asText(x.age))))
        .filter(present);
      return formatHits(hits, `No news for "${a.query}".`);
    },
  }),
  braveTool({
    name: 'BraveImageSearch',
    description: imageText,
    maxCount: 100,
    schema: z.object({ query, count: count(100), safesearch: z.enum(['off', 'strict']).optional() }),
    async run(a, b) {
      const data = await braveGet(b, '/images/search', {
        q: a.query,
        count: a.count ?? 20,
        safesearch: a.safesearch ?? 'strict',
      });
      const hits = asArray(asRecord(data).results)
        .map((r) => {
          const x = asRecord(r);
          const image = asText(at(x, 'properties.url'));
          return toHit(r, 'source', () =>
            joinParts(
              image && `image: ${image}`,
              asText(at(x, 'thumbnail.src')) && `thumbnail: ${asText(at(x, 'thumbnail.src'))}`,
            ),
          );
        })
        .filter(present);
      return formatHits(hits, `No images for "${a.query}".`);
    },
  }),
  braveTool({
    name: 'BraveVideoSearch',
    description: videoText,
    maxCount: 50,
    schema: z.object({ query, count: count(50), offset: z.number().int().min(0).max(9).optional(), freshness }),
    async run(a, b) {
      const data = await braveGet(b, '/videos/search', {
        q: a.query,
        count: a.count ?? 10,
        offset: a.offset,
        freshness: a.freshness,
      });
      const hits = asArray(asRecord(data).results)
        .map((r) =>
          toHit(r, 'description', (x) =>
            joinParts(asText(at(x, 'video.duration')), asText(at(x, 'video.creator')), asText(x.age)),
          ),
        )
        .filter(present);
      return formatHits(hits, `No videos for "${a.query}".`);
    },
  }),
  braveTool({
    name: 'BraveLLMContext',
    description: llmContextText,
    maxCount: 50,
    schema: z.object({ query, count: count(50), max_tokens: z.number().int().min(1024).max(32768).optional() }),
    async run(a, b) {
      return formatLlmContext(
        await braveGet(b, '/llm/context', {
          q: a.query,
          count: a.count,
          maximum_number_of_tokens: a.max_tokens ?? 8192,
        }),
      );
    },
  }),
  braveTool({
    name: 'BraveAnswers',
    description: answersText,
    schema: z.object({ query }),
    async run(a, b) {
      const data = await bravePost(b, '/chat/completions', {
        model: 'brave',
        stream: false,
        messages: [{ role: 'user', content: a.query }],
      });
      const answer = asText(at(asArray(asRecord(data).choices)[0], 'message.content'));
      if (!answer) throw new Error('Brave Answers returned no answer for this question.');
      return answer;
    },
  }),
  braveTool({
    name: 'BraveSuggest',
    description: suggestText,
    maxCount: 20,
    schema: z.object({ query, count: count(20), country }),
    async run(a, b) {
      const data = await braveGet(b, '/suggest/search', { q: a.query, count: a.count ?? 5, country: a.country });
      const items = asArray(asRecord(data).results)
        .map((r) => asText(asRecord(r).query))
        .filter(Boolean);
      return items.length ? items.map((s) => `- ${s}`).join('\n') : `No suggestions for "${a.query}".`;
    },
  }),
  braveTool({
    name: 'BraveSpellcheck',
    description: spellcheckText,
    schema: z.object({ query, country }),
    async run(a, b) {
      const data = await braveGet(b, '/spellcheck/search', { q: a.query, country: a.country });
      const corrected = asText(asRecord(asArray(asRecord(data).results)[0]).query);
      return corrected && corrected !== a.query
        ? `Did you mean: ${corrected}`
        : `"${a.query}" has no spelling correction.`;
    },
  }),
  braveTool({
    name: 'BraveLocalSearch',
    description: localText,
    maxCount: 20,
    schema: z.object({ query, count: count(20), country }),
    async run(a, b) {
      const search = await braveGet(b, '/web/search', {
        q: a.query,
        result_filter: 'locations',
        count: a.count ?? 5,
        country: a.country,
      });
      const ids = asArray(at(search, 'locations.results'))
        .map((r) => asText(asRecord(r).id))
        .filter((id): id is string => !!id)
        .slice(0, a.count ?? 5);
      if (!ids.length) return `Brave found no places for "${a.query}".`;
      const [pois, descriptions] = await Promise.all([
        braveGet(b, '/local/pois', { ids }),
        braveGet(b, '/local/descriptions', { ids }),
      ]);
      return formatPlaces(pois, descriptions);
    },
  }),
  braveTool({
    name: 'BraveRichResults',
    description: richText,
    schema: z.object({ query, country }),
    async run(a, b) {
      const search = await braveGet(b, '/web/search', { q: a.query, enable_rich_callback: 1, country: a.country });
      const key = asText(at(search, 'rich.hint.callback_key'));
      if (!key) return `Brave has no rich result for "${a.query}".`;
      const rich = await braveGet(b, '/web/rich', { callback_key: key });
      return `Rich result (${asText(at(search, 'rich.hint.vertical')) ?? 'unknown kind'}):\n${JSON.stringify(asRecord(rich).results ?? rich, null, 2)}`;
    },
  }),
];
