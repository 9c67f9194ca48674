// /export-md: the conversation as a Markdown document.
import type { Message } from '../llm/types';

export function exportFileName(sessionId: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `jarvis-export-${sessionId.slice(-8).toLowerCase()}-${stamp}.md`;
}

function textOf(m: Message): string {
  if (m.role === 'assistant') return m.text;
  return m.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
}

export function sessionToMarkdown(opts: { title?: string; sessionId: string; workDir: string; model: string; messages: readonly Message[] }): string {
  const out: string[] = [`# ${opts.title ?? 'Jarvis session'}`, '', `- Session: \`${opts.sessionId}\``, `- Folder: \`${opts.workDir}\``, `- Model: ${opts.model}`, `- Exported: ${new Date().toISOString()}`, ''];
  for (const m of opts.messages) {
    if (m.role === 'user') {
      out.push('## User', '', textOf(m), '');
    } else if (m.role === 'assistant') {
      out.push('## Assistant', '');
      if (m.text.trim()) out.push(m.text, '');
      for (const call of m.toolCalls ?? []) out.push(`**Tool call** \`${call.name}\``, '', '```json', call.arguments, '```', '');
    } else {
      const fence = textOf(m).includes('```') ? '~~~~' : '```';
      out.push(`**Tool result** \`${m.toolName}\`${m.isError ? ' (error)' : ''}`, '', fence, textOf(m), fence, '');
    }
  }
  return out.join('\n');
}
