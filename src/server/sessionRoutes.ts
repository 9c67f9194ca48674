// The session API's routes for sessions, the transcript and prompts (docs/server.md "Endpoints").
import { ApiError, Codes } from './envelope';
import {
  decodeImage,
  IMAGE_MEDIA_TYPES,
  MAX_IMAGE_BYTES,
  MAX_PROMPT_IMAGES,
  PROMPT_BODY_LIMIT,
} from './promptAttachments';
import { bool, MODES, obj, page, session, str, type Route } from './routeKit';

export const SESSION_ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/meta',
    tag: 'server',
    summary: 'version, server id, start time, capabilities',
    handler: (ctx) => ctx.meta(),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions',
    tag: 'sessions',
    summary: 'create a session in a folder inside the workspace roots (default: the first root)',
    body: obj({ metadata: obj({ cwd: str }), model: str, permission_mode: MODES, plan_mode: bool, title: str }),
    handler: async (ctx) => {
      const meta = ctx.body.metadata as { cwd?: string } | undefined;
      const roots = ctx.meta().workspace_roots as string[];
      const s = await ctx.registry.create(meta?.cwd ?? roots[0], ctx.body.model as string | undefined);
      if (ctx.body.permission_mode !== undefined || ctx.body.plan_mode !== undefined)
        s.setMode(ctx.body.permission_mode as never, ctx.body.plan_mode as boolean | undefined);
      return s.status();
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions',
    tag: 'sessions',
    summary: 'sessions in the workspace roots, newest first',
    query: {
      include_archive: bool,
      archived_only: bool,
      busy: bool,
      page_size: { type: 'integer', minimum: 1, maximum: 100 },
    },
    handler: async (ctx) => {
      const rows = await ctx.registry.list({
        includeArchive: ctx.query.include_archive === true,
        archivedOnly: ctx.query.archived_only === true,
        busy: ctx.query.busy as boolean | undefined,
      });
      const size = (ctx.query.page_size as number | undefined) ?? 50;
      return { items: rows.slice(0, size), has_more: rows.length > size };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}',
    tag: 'sessions',
    summary: 'one session (opens it)',
    handler: async (ctx) => (await session(ctx)).status(),
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/status',
    tag: 'sessions',
    summary: 'busy, model, permission and plan mode',
    handler: async (ctx) => (await session(ctx)).status(),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/profile',
    tag: 'sessions',
    summary: 'switch the model, permission mode or plan mode',
    body: obj({ agent_config: obj({ model: str, permission_mode: MODES, plan_mode: bool }) }, ['agent_config']),
    handler: async (ctx) => {
      const s = await session(ctx);
      const c = ctx.body.agent_config as { model?: string; permission_mode?: 'manual'; plan_mode?: boolean };
      if (c.model) s.setModel(c.model);
      if (c.permission_mode !== undefined || c.plan_mode !== undefined) s.setMode(c.permission_mode, c.plan_mode);
      s.afterProfileChange();
      return s.status();
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/models',
    tag: 'sessions',
    summary:
      "the models the session can switch to (the config's aliases, as /model offers them), the current one marked",
    handler: async (ctx) => ({ items: (await session(ctx)).models() }),
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/snapshot',
    tag: 'sessions',
    summary:
      'everything a client needs after resync_required: status, newest 100 messages, prompts, approvals, todos, goal, subagents',
    handler: async (ctx) => {
      const s = await session(ctx);
      return {
        as_of_seq: s.journal.lastSeq,
        epoch: s.journal.epoch,
        status: s.status(),
        messages: page(s.runtime.session.state.messages, 100),
        prompts: s.listPrompts(),
        approvals: s.approvals.pending(),
        ...s.liveState(),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}:fork',
    tag: 'sessions',
    summary: 'copy the session; the copy is a new session',
    body: obj({}),
    handler: async (ctx) => ({ session_id: await ctx.registry.fork(ctx.params.id), forked_from: ctx.params.id }),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}:abort',
    tag: 'sessions',
    summary: 'stop the running turn (its result says interrupted)',
    body: obj({}),
    handler: async (ctx) => ({ aborted: (await session(ctx)).abort() }),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}:undo',
    tag: 'sessions',
    summary: 'rewind the last count prompts (conversation and files)',
    body: obj({ count: { type: 'integer', minimum: 1, maximum: 1000 } }),
    handler: async (ctx) => (await session(ctx)).undo((ctx.body.count as number | undefined) ?? 1),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}:compact',
    tag: 'sessions',
    summary: 'compact the conversation now',
    body: obj({ instruction: str }),
    handler: async (ctx) => (await session(ctx)).compact(ctx.body.instruction as string | undefined),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}:archive',
    tag: 'sessions',
    summary: 'close and hide the session (it stays on disk)',
    body: obj({}),
    handler: async (ctx) => {
      await ctx.registry.archive(ctx.params.id);
      return { archived: true };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}:restore',
    tag: 'sessions',
    summary: 'unarchive',
    body: obj({}),
    handler: async (ctx) => {
      await ctx.registry.restore(ctx.params.id);
      return { archived: false };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/messages',
    tag: 'transcript',
    summary: 'the conversation as the model sees it, newest page_size messages',
    query: { page_size: { type: 'integer', minimum: 1, maximum: 100 } },
    handler: async (ctx) =>
      page((await session(ctx)).runtime.session.state.messages, (ctx.query.page_size as number | undefined) ?? 50),
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/prompts',
    tag: 'prompts',
    summary: 'the running and queued prompts',
    handler: async (ctx) => ({ items: (await session(ctx)).listPrompts() }),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/prompts',
    tag: 'prompts',
    summary:
      'submit a prompt (queued behind a running one): text, images, /name commands and skills, @path files; prompt_id makes it idempotent',
    body: obj(
      {
        content: {
          type: 'array',
          minItems: 1,
          items: {
            oneOf: [
              obj({ type: { const: 'text' }, text: str }, ['type', 'text']),
              obj(
                {
                  type: { const: 'image' },
                  media_type: { type: 'string', enum: [...IMAGE_MEDIA_TYPES] },
                  data: { type: 'string', minLength: 4, maxLength: Math.ceil(MAX_IMAGE_BYTES / 3) * 4 },
                },
                ['type', 'media_type', 'data'],
              ),
            ],
          },
        },
        prompt_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      },
      ['content'],
    ),
    maxBody: PROMPT_BODY_LIMIT,
    handler: async (ctx) => {
      const parts = ctx.body.content as Array<
        { type: 'text'; text: string } | { type: 'image'; media_type: string; data: string }
      >;
      const images = parts.filter((p) => p.type === 'image');
      if (images.length > MAX_PROMPT_IMAGES)
        throw new ApiError(
          Codes.validation,
          `a prompt takes at most ${MAX_PROMPT_IMAGES} images; it has ${images.length}`,
        );
      const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      if (!text.trim() && !images.length) throw new ApiError(Codes.validation, 'the prompt is empty');
      return (await session(ctx)).submitInput(
        text,
        images.map((p, i) => decodeImage(p, i)),
        ctx.body.prompt_id as string | undefined,
      );
    },
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/prompts:steer',
    tag: 'prompts',
    summary: 'steer the queued prompts into the running turn',
    body: obj({}),
    handler: async (ctx) => ({ steered: (await session(ctx)).steer() }),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/prompts/{pid}:steer',
    tag: 'prompts',
    summary: 'steer one queued prompt into the running turn',
    body: obj({}),
    handler: async (ctx) => ({ steered: (await session(ctx)).steer([ctx.params.pid]) }),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/prompts/{pid}:abort',
    tag: 'prompts',
    summary: 'abort a running prompt, or drop a queued one',
    body: obj({}),
    handler: async (ctx) => (await session(ctx)).abortPrompt(ctx.params.pid),
  },
];
