// The environment the session's child processes start from (docs/sdk.md, "Concurrency and isolation"): Bash
// commands in the foreground and the background, and whatever else a tool starts. The runtime lends it
// (engine/runtime/sharedServices.ts): `process.env` under the CLI, a query's own `env` under the SDK, so two
// sessions of one process never see each other's variables and nothing writes to `process.env`. The sandbox's
// secret scrubbing (platform/sandbox/sandboxEnv.ts) applies to it exactly as to `process.env`.
import { serviceKey, type ToolContext } from './defineTool';

export const SESSION_ENV = serviceKey<Readonly<NodeJS.ProcessEnv>>()('sessionEnv');

/** The session's environment; `process.env` where the runtime lends none (an embedding that builds its own context). */
export function sessionEnvOf(ctx: ToolContext<typeof SESSION_ENV>): NodeJS.ProcessEnv {
  return { ...(ctx.services.find(SESSION_ENV) ?? process.env) };
}
