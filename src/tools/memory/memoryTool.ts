// Memory: remember, forget and list persistent memories (docs/memory.md). The store enforces the
// limits, the scope rules and the credential check; this file turns a call into one store operation
// and the outcome into text the model can act on. It declares no file accesses: the memory files are
// the store's own (it locks them itself), not workspace files under the read-before-write guard, and
// plan mode, which keeps the workspace unchanged, lets memory calls through.
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolResult } from '../defineTool';
import {
  MEMORY_LIMITS,
  MEMORY_SCOPES,
  MemoryError,
  type MemoryRecord,
  type MemoryScope,
  type MemoryStore,
} from '../../store/memoryStore';
import description from './memory.md';
import { MEMORY_SERVICE } from './memoryService';

/** How much of a description `list` shows per memory; `list` with a name shows everything. */
const LIST_DESCRIPTION_CHARS = 160;

const schema = z.object({
  action: z.enum(['remember', 'forget', 'list']),
  scope: z.enum(MEMORY_SCOPES).optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  body: z.string().optional(),
});
type MemoryArgs = z.infer<typeof schema>;

function defaultScope(store: MemoryStore): MemoryScope {
  return store.trusted ? 'project' : 'workspace';
}

function scopeOf(args: MemoryArgs, ctx: ToolContext<typeof MEMORY_SERVICE>): MemoryScope {
  return args.scope ?? defaultScope(ctx.services.get(MEMORY_SERVICE));
}

const error = (content: string): ToolResult => ({ content, isError: true });

export const memoryTool = defineTool({
  name: 'Memory',
  services: [MEMORY_SERVICE],
  description,
  constants: {
    NAME_CHARS: MEMORY_LIMITS.nameChars,
    DESCRIPTION_CHARS: MEMORY_LIMITS.descriptionChars,
    BODY_BYTES: MEMORY_LIMITS.bodyBytes,
    RECORDS: MEMORY_LIMITS.recordsPerScope,
  },
  schema,
  readOnly: false,
  deferred: true,
  defaultApproval: 'ask',
  approvalFor: (args) => (args.action === 'list' ? 'auto' : 'ask'),
  subject: (args, ctx) =>
    args.action === 'list' ? 'Memory(list)' : `Memory(${args.action} ${scopeOf(args, ctx)}:${args.name ?? ''})`,
  async execute(args, ctx) {
    const store = ctx.services.get(MEMORY_SERVICE);
    const actor = { mainAgent: ctx.services.mainAgent, origin: 'tool' as const };
    try {
      if (args.action === 'list') return list(store, args);
      const scope = scopeOf(args, ctx);
      if (args.name === undefined) return error(`Memory ${args.action} needs "name".`);
      if (args.action === 'forget') {
        const gone = await store.forget(scope, args.name, actor);
        return { content: `Forgot the ${scope} memory "${gone.name}".`, summary: `Forgot ${scope}:${gone.name}` };
      }
      if (args.body === undefined || args.body.trim() === '')
        return error('Memory remember needs "body": the fact itself.');
      const { record, change } = await store.remember(
        { scope, name: args.name, description: args.description ?? '', body: args.body },
        actor,
      );
      const what =
        change === 'created' ? 'Remembered' : change === 'replaced' ? 'Replaced' : 'Already remembered (unchanged)';
      return { content: `${what}: ${scope} memory "${record.name}".`, summary: `${what} ${scope}:${record.name}` };
    } catch (e) {
      if (e instanceof MemoryError) return error(e.message);
      throw e;
    }
  },
});

function list(store: MemoryStore, args: MemoryArgs): ToolResult {
  const { records, warnings } = store.list(args.scope);
  const notes = warnings.map((w) => `(warning: ${w})`);
  if (!store.trusted && args.scope === undefined)
    notes.push('(project memories are hidden: this workspace is not trusted)');
  if (args.name !== undefined) {
    const key = args.name.trim().toLowerCase();
    const found = records.filter((r) => r.name.toLowerCase() === key);
    if (!found.length)
      return error(`There is no visible memory named "${args.name}". Call Memory with action "list" to see the names.`);
    return { content: [...found.map(showRecord), ...notes].join('\n\n'), summary: `Memory ${args.name}` };
  }
  const scopes = args.scope ? [args.scope] : store.visibleScopes();
  const lines: string[] = [];
  for (const scope of scopes) {
    const inScope = records.filter((r) => r.scope === scope);
    lines.push(`${scope} (${inScope.length}/${MEMORY_LIMITS.recordsPerScope}):`);
    if (!inScope.length) lines.push('  (none)');
    for (const r of inScope) lines.push(`  - ${r.name}${r.description ? ` — ${clip(r.description)}` : ''}`);
  }
  lines.push(...notes);
  return { content: lines.join('\n'), summary: `${records.length} memories` };
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LIST_DESCRIPTION_CHARS ? `${line.slice(0, LIST_DESCRIPTION_CHARS)}…` : line;
}

function showRecord(r: MemoryRecord): string {
  return [
    `${r.scope} memory "${r.name}" (saved ${r.createdAt.slice(0, 10)}, updated ${r.updatedAt.slice(0, 10)}, by ${r.origin === 'tool' ? 'the Memory tool' : 'automatic extraction'})`,
    r.description ? `description: ${r.description}` : undefined,
    r.body,
  ]
    .filter((x) => x !== undefined)
    .join('\n');
}
