// `/memory` (docs/memory.md "/memory"): lists the memories this folder can see, shows one in full, and
// forgets one. It works before the session exists (it reads the same files the Memory tool writes),
// and a forget typed by the user counts as the main agent's, so user-scope memories can be forgotten.
import { MemoryError, MemoryStore, MEMORY_SCOPES, type MemoryRecord, type MemoryScope } from '../store/memoryStore';
import { isWorkspaceTrusted } from '../store/trust';
import type { CommandHost, SlashCommand } from './slashCommands';

function storeFor(h: CommandHost): MemoryStore {
  return new MemoryStore({ home: h.home, cwd: h.cwd, trusted: () => isWorkspaceTrusted(h.home, h.cwd) });
}

const refOf = (r: MemoryRecord) => `${r.scope}:${r.name}`;

/** `scope:name` or a bare name (found in any visible scope). */
function find(records: readonly MemoryRecord[], ref: string): MemoryRecord[] {
  const m = /^(user|workspace|project):(.+)$/.exec(ref);
  const scope = m?.[1] as MemoryScope | undefined;
  const name = (m ? m[2] : ref).trim().toLowerCase();
  return records.filter((r) => r.name.toLowerCase() === name && (!scope || r.scope === scope));
}

function showLines(r: MemoryRecord): string[] {
  return [
    `${r.scope} memory · saved ${r.createdAt.slice(0, 10)} · updated ${r.updatedAt.slice(0, 10)} · ${r.origin === 'tool' ? 'Memory tool' : 'automatic extraction'}`,
    ...(r.description ? ['', r.description] : []),
    '',
    ...r.body.split('\n'),
    '',
    `Forget it with /memory forget ${refOf(r)}`,
  ];
}

async function forget(
  h: CommandHost,
  store: MemoryStore,
  records: readonly MemoryRecord[],
  ref: string,
): Promise<void> {
  const matches = find(records, ref);
  if (matches.length !== 1) {
    h.notice(
      'error',
      matches.length
        ? `"${ref}" names memories in several scopes; say which: ${matches.map(refOf).join(', ')}.`
        : `No visible memory "${ref}". /memory lists them.`,
    );
    return;
  }
  try {
    await store.forget(matches[0].scope, matches[0].name, { mainAgent: true, origin: 'tool' });
    h.notice('success', `Forgot the ${matches[0].scope} memory "${matches[0].name}".`);
  } catch (e) {
    if (!(e instanceof MemoryError)) throw e;
    h.notice('error', e.message);
  }
}

export const memoryCommand: SlashCommand = {
  name: 'memory',
  aliases: [],
  description: 'list, show or forget persistent memories',
  async run(h, args) {
    const store = storeFor(h);
    const { records, warnings } = store.list();
    for (const w of warnings) h.notice('warning', w);
    const [verb, ...rest] = args.trim().split(/\s+/);
    const ref = rest.join(' ');
    if (verb === 'forget' && ref) return forget(h, store, records, ref);
    if (verb === 'show' && ref) {
      const [match] = find(records, ref);
      if (match) h.popup(`Memory: ${match.name}`, showLines(match));
      else h.notice('error', `No visible memory "${ref}". /memory lists them.`);
      return;
    }
    if (verb) {
      h.notice(
        'error',
        `Expected /memory, /memory show <name> or /memory forget <scope>:<name>, got "/memory ${args.trim()}".`,
      );
      return;
    }
    const hidden = store.trusted ? [] : ['Project memories are hidden: this folder is not trusted.'];
    if (!records.length) {
      h.popup('Memory', [
        'No memories yet. Ask Jarvis to remember something, or let it pick facts up as you work.',
        ...hidden,
      ]);
      return;
    }
    const order = (r: MemoryRecord) => MEMORY_SCOPES.indexOf(r.scope);
    const sorted = [...records].sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
    h.pick(
      `Memory (${records.length}) — Enter shows one`,
      sorted.map((r) => ({
        value: refOf(r),
        label: `${r.scope}: ${r.name}`.slice(0, 70),
        description: r.description.split('\n')[0].slice(0, 80),
      })),
      (value) => {
        const record = sorted.find((r) => refOf(r) === value)!;
        h.popup(`Memory: ${record.name}`, showLines(record));
      },
      hidden,
    );
  },
};
