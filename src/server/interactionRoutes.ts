// The session API's routes for what waits on a client or runs beside the conversation: approvals, questions and plan
// reviews, background tasks, and the lists of skills, tools and MCP servers (docs/server.md "Endpoints").
import { ApiError, Codes } from './envelope';
import { bool, obj, session, str, type Route } from './routeKit';

export const INTERACTION_ROUTES: Route[] = [
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
