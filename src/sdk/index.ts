// `jarvis-code/sdk` (docs/sdk.md): Jarvis as a library. scripts/build.mjs bundles this file into dist/sdk.js and ships
// api.ts as its dist/sdk.d.ts; the two are held together here by the compiler.
import type * as Api from './api';
import type { StreamJsonMessage } from '../engine/runtime/streamJson';
import type { RunResultEvent } from '../engine/runtime/runResult';
import type { HOOK_EVENTS } from '../store/configSchema';
import { query as runQuery } from './query';
import { tool as makeTool } from './sdkTool';

export const query: typeof Api.query = runQuery;
export const tool: typeof Api.tool = makeTool;
export type * from './api';

/** The public message types are the engine's stream-json events, both ways (a field added on one side fails here). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const messagesMatch: Same<Api.SDKMessage, StreamJsonMessage | RunResultEvent> = true;
void messagesMatch;
const hookEventsMatch: Same<Api.HookEvent, (typeof HOOK_EVENTS)[number]> = true;
void hookEventsMatch;
