// The `hooks` option of query() (docs/sdk.md "hooks"): the program's functions as hooks of the session, beside the
// `[[hooks]]` of config.toml when settingSources loads it. Each becomes a HookSpec with a callback
// (ext/hooks/hookCallback.ts), so it fires, matches and answers exactly as a hook command does (docs/hooks.md).
import { HOOK_EVENTS } from '../store/configSchema';
import type { HookSpec } from '../ext/hooks/hookRunner';
import type { Options } from './api';

const DEFAULT_TIMEOUT_S = 60;

/** Throws a TypeError naming the entry for a `hooks` option query() cannot run with. */
export function checkHooks(hooks: Options['hooks']): void {
  if (hooks === undefined) return;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))
    throw new TypeError('options.hooks must be an object: { PreToolUse: [{ matcher?, hooks: [fn] }], … }');
  for (const [event, groups] of Object.entries(hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event))
      throw new TypeError(`options.hooks.${event}: not a hook event; use one of ${HOOK_EVENTS.join(', ')}`);
    if (!Array.isArray(groups)) throw new TypeError(`options.hooks.${event} must be an array of { matcher?, hooks }`);
    groups.forEach((g: unknown, i) => {
      const where = `options.hooks.${event}[${i}]`;
      const group = g as { matcher?: unknown; hooks?: unknown; timeout?: unknown };
      if (typeof g !== 'object' || g === null) throw new TypeError(`${where} must be { matcher?, hooks: [fn] }`);
      if (group.matcher !== undefined) {
        if (typeof group.matcher !== 'string')
          throw new TypeError(`${where}.matcher must be a regular expression text`);
        try {
          new RegExp(group.matcher);
        } catch (e) {
          throw new TypeError(`${where}.matcher is not a regular expression: ${(e as Error).message}`);
        }
      }
      const t = group.timeout;
      if (t !== undefined && !(typeof t === 'number' && Number.isInteger(t) && t >= 1 && t <= 600))
        throw new TypeError(`${where}.timeout must be a whole number of seconds, 1–600`);
      if (!Array.isArray(group.hooks) || !group.hooks.length || group.hooks.some((f) => typeof f !== 'function'))
        throw new TypeError(`${where}.hooks must be a non-empty array of functions`);
    });
  }
}

/**
 * The hooks as HookSpecs. `failed` hears a callback that threw (the SDK reports it as an `error` message); the
 * hook then counts as failed and the event goes ahead, as for a hook command that crashed.
 */
export function sdkHookSpecs(hooks: Options['hooks'], failed: (text: string) => void): HookSpec[] {
  const specs: HookSpec[] = [];
  let n = 0;
  for (const [event, groups] of Object.entries(hooks ?? {}))
    for (const group of groups ?? [])
      for (const fn of group.hooks) {
        const label = `options.hooks.${event} #${++n}`;
        specs.push({
          event: event as HookSpec['event'],
          matcher: group.matcher,
          command: label,
          timeout: group.timeout ?? DEFAULT_TIMEOUT_S,
          origin: 'the SDK program',
          callback: async (payload, context) => {
            try {
              return await fn(payload as never, context);
            } catch (e) {
              failed(`${label} threw: ${e instanceof Error ? e.message : String(e)}`);
              throw e;
            }
          },
        });
      }
  return specs;
}
