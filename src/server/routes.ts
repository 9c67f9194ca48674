// The session API's route table (docs/server.md "Endpoints"): each route's method, path, query and body schemas and
// handler. The HTTP server validates requests with these schemas and /openapi.json is generated from them, so the
// published description cannot drift from what the server accepts.
import type { ServerSession } from './serverSession';
import type { SessionRegistry } from './sessionRegistry';
import { ApiError, Codes } from './envelope';

export type JsonSchema = Record<string, unknown>;

export interface RouteContext {
  params: Record<string, string>;
  query: Record<string, string | number | boolean>;
  body: Record<string, unknown>;
  clientId: string;
  registry: SessionRegistry;
  meta: () => Record<string, unknown>;
}

export interface Route {
  method: 'GET' | 'POST';
  /** `{name}` marks a path parameter; `:action` is SPEC §10.2's action convention. */
  path: string;
  summary: string;
  tag: string;
  query?: Record<string, JsonSchema>;
  body?: JsonSchema;
  handler(ctx: RouteContext): unknown;
}

const str = { type: 'string', minLength: 1, maxLength: 100_000 };
const bool = { type: 'boolean' };
const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const MODES = { type: 'string', enum: ['manual', 'auto', 'yolo'] };

async function session(ctx: RouteContext): Promise<ServerSession> {
  return ctx.registry.get(ctx.params.id);
}

function page<T>(items: T[], size: number): { items: T[]; has_more: boolean } {
  return { items: items.slice(-size), has_more: items.length > size };
}

export const ROUTES: Route[] = [
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
    handler: async (ctx) =>
      page(
        (
          await ctx.registry.list({
            includeArchive: ctx.query.include_archive === true,
            archivedOnly: ctx.query.archived_only === true,
            busy: ctx.query.busy as boolean | undefined,
          })
        ).reverse(),
        (ctx.query.page_size as number | undefined) ?? 50,
      ),
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
    path: '/api/v1/sessions/{id}/snapshot',
    tag: 'sessions',
    summary: 'everything a client needs after resync_required: status, newest 100 messages, prompts, approvals',
    handler: async (ctx) => {
      const s = await session(ctx);
      return {
        as_of_seq: s.journal.lastSeq,
        epoch: s.journal.epoch,
        status: s.status(),
        messages: page(s.runtime.session.state.messages, 100),
        prompts: s.listPrompts(),
        approvals: s.approvals.pending(),
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
    summary: 'submit a prompt (queued behind a running one); prompt_id makes it idempotent',
    body: obj(
      {
        content: { type: 'array', minItems: 1, items: obj({ type: { const: 'text' }, text: str }, ['type', 'text']) },
        prompt_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      },
      ['content'],
    ),
    handler: async (ctx) => {
      const parts = ctx.body.content as Array<{ text: string }>;
      return (await session(ctx)).submit(parts.map((p) => p.text).join('\n'), ctx.body.prompt_id as string | undefined);
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
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/approvals',
    tag: 'approvals',
    summary: 'approvals waiting for an answer',
    query: { status: { type: 'string', enum: ['pending'] } },
    handler: async (ctx) => ({ items: (await session(ctx)).approvals.pending() }),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/approvals/{aid}',
    tag: 'approvals',
    summary: 'answer an approval; the first answer of any client wins',
    body: obj(
      {
        decision: { type: 'string', enum: ['approved', 'rejected', 'cancelled'] },
        scope: { type: 'string', enum: ['once', 'session'] },
        feedback: { type: 'string', maxLength: 10_000 },
        updated_input: { type: 'object', description: 'run the call with these arguments instead (approved only)' },
      },
      ['decision'],
    ),
    handler: async (ctx) => ({
      approval_id: ctx.params.aid,
      resolution: (await session(ctx)).approvals.answer(ctx.params.aid, ctx.body as never, ctx.clientId),
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/questions',
    tag: 'questions',
    summary: 'questions (AskUserQuestion) and plan reviews (ExitPlanMode) waiting for an answer',
    query: { status: { type: 'string', enum: ['pending'] } },
    handler: async (ctx) => ({ items: (await session(ctx)).questions.pending() }),
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/questions/{qid}',
    tag: 'questions',
    summary: 'answer questions (answers) or a plan review (plan_decision); the first answer of any client wins',
    body: {
      anyOf: [
        obj(
          {
            answers: {
              type: 'array',
              minItems: 1,
              maxItems: 4,
              items: obj(
                {
                  question: str,
                  kind: { type: 'string', enum: ['single', 'multi', 'other', 'multi_with_other', 'skipped'] },
                  selected: { type: 'array', items: str, maxItems: 4 },
                  other: { type: 'string', maxLength: 10_000 },
                },
                ['question', 'kind', 'selected'],
              ),
            },
          },
          ['answers'],
        ),
        obj(
          {
            plan_decision: { type: 'string', enum: ['approve', 'reject', 'reject_and_exit', 'revise'] },
            option: str,
            feedback: { type: 'string', maxLength: 10_000 },
          },
          ['plan_decision'],
        ),
      ],
    },
    handler: async (ctx) => {
      (await session(ctx)).questions.answer(ctx.params.qid, ctx.body as never, ctx.clientId);
      return { question_id: ctx.params.qid, resolution: 'answered' };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/questions/{qid}:dismiss',
    tag: 'questions',
    summary: 'dismiss: the questions go unanswered, a plan review is a reject (success is code 40909, SPEC §10.2)',
    body: obj({}),
    handler: async (ctx) => {
      (await session(ctx)).questions.dismiss(ctx.params.qid, ctx.clientId);
      throw new ApiError(40909, 'question dismissed', 200, { question_id: ctx.params.qid, resolution: 'dismissed' });
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/tasks',
    tag: 'tasks',
    summary: 'background tasks',
    query: { status: { type: 'string', enum: ['running', 'all'] } },
    handler: async (ctx) => ({
      items: (await session(ctx)).runtime.tasks.list({ activeOnly: ctx.query.status === 'running' }),
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/tasks/{tid}',
    tag: 'tasks',
    summary: 'one background task, with the tail of its output when with_output',
    query: { with_output: bool, output_bytes: { type: 'integer', minimum: 1, maximum: 1_048_576 } },
    handler: async (ctx) => {
      const tasks = (await session(ctx)).runtime.tasks;
      const task = tasks.get(ctx.params.tid);
      if (!task) throw new ApiError(Codes.task, `no task ${ctx.params.tid}`);
      if (ctx.query.with_output !== true) return task;
      const output = await tasks.readOutputTail(
        ctx.params.tid,
        (ctx.query.output_bytes as number | undefined) ?? 32768,
      );
      return { ...task, output };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/sessions/{id}/tasks/{tid}:cancel',
    tag: 'tasks',
    summary: 'stop a running background task',
    body: obj({}),
    handler: async (ctx) => {
      const tasks = (await session(ctx)).runtime.tasks;
      const task = tasks.get(ctx.params.tid);
      if (!task) throw new ApiError(Codes.task, `no task ${ctx.params.tid}`);
      if (task.status !== 'running')
        throw new ApiError(Codes.taskFinished, `task ${task.id} already ended (${task.status})`);
      return tasks.stop(task.id, 'Stopped from the server API');
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/skills',
    tag: 'extensions',
    summary: "the session's skills",
    handler: async (ctx) => ({
      items: ((await session(ctx)).runtime.skills?.all ?? []).map((s) => ({
        name: s.name,
        description: s.description,
        type: s.type,
        user_only: s.disableModelInvocation,
      })),
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/tools',
    tag: 'extensions',
    summary: 'the tools of the main agent (offered now, or loadable)',
    handler: async (ctx) => {
      const rt = (await session(ctx)).runtime;
      const offered = new Set(rt.offered.list().map((t) => t.name));
      return {
        items: rt.tools
          .list()
          .map((t) => ({ name: t.name, description: t.renderedDescription, active: offered.has(t.name) })),
      };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/sessions/{id}/mcp/servers',
    tag: 'extensions',
    summary: "the session's MCP servers and their state",
    handler: async (ctx) => ({ items: (await session(ctx)).mcpStatus() }),
  },
];
