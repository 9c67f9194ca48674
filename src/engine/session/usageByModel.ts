// The usage of a whole session by model (docs/ui.md, `/usage`): the main agent's journal state, plus the usage
// records of every subagent journal in the session folder (`agents/<id>/wire.jsonl`) — a subagent may run on
// another model than its caller (docs/skills-and-agents.md, "A model per agent"). The journals are only read.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJournal } from '../../store/journal';
import { journalPathOf } from '../../store/sessionStore';
import { MAIN_AGENT_ID } from '../loop/events';
import { addModelUsage, isJournalRecord, type ModelUsage, type SessionState } from './records';

export function sessionUsageByModel(sessionDir: string, main: SessionState): Record<string, ModelUsage> {
  const total: Record<string, ModelUsage> = structuredClone(main.usage.byModel ?? {});
  let agents: string[];
  try {
    agents = readdirSync(join(sessionDir, 'agents')).filter((id) => id !== MAIN_AGENT_ID);
  } catch (e) {
    // A session whose folder has no agents yet has no subagents; anything else is a real failure.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return total;
    throw e;
  }
  for (const id of agents) {
    for (const record of readJournal(journalPathOf(sessionDir, id), sessionDir, isJournalRecord).records) {
      if (record.type === 'usage') addModelUsage(total, record.model, record.usage);
      else if (record.type === 'compaction' && record.usage)
        addModelUsage(total, record.model, { ...record.usage, cacheReadTokens: 0, cacheWriteTokens: 0 });
    }
  }
  return total;
}
