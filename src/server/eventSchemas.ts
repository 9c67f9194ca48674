// The payloads of the live events a browser draws from (docs/server.md "Live events"), as JSON Schema 2020-12: put
// in /openapi.json's `components.schemas` (named `event.<type>`) and checked against what the server sends by the
// tests, so the description and the events cannot drift apart.
import type { JsonSchema } from './routeKit';

const nullableString = { type: ['string', 'null'] };
const nullableNumber = { type: ['number', 'null'] };

const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const limits = () => closed({ turns: nullableNumber, tokens: nullableNumber, time_ms: nullableNumber });

/** The goal (src/server/liveFeed.ts goalPayload); null when there is none. */
export const GOAL_SCHEMA: JsonSchema = {
  oneOf: [
    { type: 'null' },
    closed({
      goal_id: { type: 'string' },
      objective: { type: 'string' },
      completion_criterion: nullableString,
      status: { type: 'string', enum: ['active', 'paused', 'blocked', 'complete'] },
      budget: limits(),
      used: closed({ turns: { type: 'number' }, tokens: { type: 'number' }, time_ms: { type: 'number' } }),
      reason: nullableString,
    }),
  ],
};

export const TODOS_SCHEMA: JsonSchema = {
  type: 'array',
  items: closed({ title: { type: 'string' }, status: { type: 'string', enum: ['pending', 'in_progress', 'done'] } }),
};

export const EVENT_SCHEMAS: Record<string, JsonSchema> = {
  'message.delta': {
    description:
      'volatile (seq 0, never replayed): a piece of the main agent message in progress; a `message` event with the same message_id ends it, and a `retry` message with it discards what streamed so far',
    ...closed({
      prompt_id: nullableString,
      message_id: nullableString,
      kind: { type: 'string', enum: ['text', 'thinking'] },
      delta: { type: 'string' },
    }),
  },
  'prompt.queued': {
    description:
      'a prompt waits for its turn; `source: "tui"` for a turn the terminal started (`/remote`, docs/remote.md)',
    ...closed({ prompt_id: { type: 'string' }, text: { type: 'string' }, source: { const: 'tui' } }, [
      'prompt_id',
      'text',
    ]),
  },
  'prompt.started': {
    description:
      'a prompt\'s turn started; a turn the terminal started has its text, `source: "tui"` and its `origin` (`user`, or `notification` for a background task\'s report)',
    ...closed(
      { prompt_id: { type: 'string' }, text: { type: 'string' }, source: { const: 'tui' }, origin: { type: 'string' } },
      ['prompt_id'],
    ),
  },
  'prompt.notice': {
    description: 'something a prompt carried was not attached (an image, an @path), or a warning of its command',
    ...closed({ prompt_id: { type: 'string' }, level: { const: 'warning' }, text: { type: 'string' } }),
  },
  'session.todos_changed': { description: 'the whole to-do list after a change', ...closed({ todos: TODOS_SCHEMA }) },
  'session.goal_changed': {
    description: 'the goal after a change (created, replaced, budget, status, blocker, progress, cancelled)',
    ...closed({ change: { type: 'string' }, goal: GOAL_SCHEMA }),
  },
  'subagent.started': {
    description: 'a subagent (an Agent call, or a member of an AgentSwarm: they share parent_call_id) started',
    ...closed({
      subagent_id: { type: 'string' },
      parent_agent_id: { type: 'string' },
      parent_call_id: { type: 'string' },
      via: { type: 'string', enum: ['Agent', 'AgentSwarm'] },
      agent_name: { type: 'string' },
      description: { type: 'string' },
      status: { const: 'running' },
      started_at: { type: 'string' },
      activity: { type: 'null' },
      elapsed_ms: { type: 'null' },
      error: { type: 'null' },
      response: { type: 'null' },
      prompt: { type: 'string' },
    }),
  },
  'subagent.progress': {
    description: "a running subagent's latest tool call",
    ...closed({ subagent_id: { type: 'string' }, parent_call_id: { type: 'string' }, activity: { type: 'string' } }),
  },
  'subagent.finished': {
    description: 'a subagent ended; its answer cut to 4000 characters',
    ...closed({
      subagent_id: { type: 'string' },
      parent_call_id: { type: 'string' },
      status: { type: 'string', enum: ['completed', 'failed', 'cancelled', 'timed_out'] },
      elapsed_ms: { type: 'integer' },
      error: nullableString,
      response: { type: 'string' },
    }),
  },
};
