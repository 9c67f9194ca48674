// What MCP servers offer besides tools (docs/mcp.md "Prompts and resources"). A server's prompts are commands:
// `/mcp__<server>__<prompt> args` sends the prompt the server returns, the typed words mapped onto the prompt's
// declared arguments (in order, the last taking the rest; or `name=value`), a missing required one refused with the
// list of them. Its resources are read by the model through the deferred ListMcpResources / ReadMcpResource tools
// (tools/mcp/).
import type { McpManager } from './mcpManager';
import { McpCallError } from './mcpConnection';
import { shellWords } from '../commands/peerTemplates';

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPromptInfo {
  server: string;
  prompt: string;
  /** What follows the `/`: `mcp__<server>__<prompt>`. */
  name: string;
  description: string;
  arguments: McpPromptArgument[];
}

export const MCP_PROMPT_PREFIX = 'mcp__';

/** `mcp__<server>__<prompt>`, characters a command name cannot hold made `_`. */
export function mcpPromptName(server: string, prompt: string): string {
  return `${MCP_PROMPT_PREFIX}${server}__${prompt}`.replace(/[^\w.:-]/g, '_');
}

/** The prompts every started server offers (a server without prompts, or not started, offers none). */
export async function listMcpPrompts(manager: McpManager): Promise<{ prompts: McpPromptInfo[]; problems: string[] }> {
  const prompts: McpPromptInfo[] = [];
  const problems: string[] = [];
  await Promise.all(
    manager.connectionsInUse().map(async (c) => {
      if (c.state !== 'ready' || !c.capabilities().prompts) return;
      try {
        const list = await c.request('the listing of its prompts', async (client, timeout) => {
          const all = [];
          let cursor: string | undefined;
          do {
            const page = await client.listPrompts(cursor ? { cursor } : undefined, { timeout });
            all.push(...page.prompts);
            cursor = page.nextCursor;
          } while (cursor);
          return all;
        });
        for (const p of list)
          prompts.push({
            server: c.config.name,
            prompt: p.name,
            name: mcpPromptName(c.config.name, p.name),
            description: p.description ?? p.title ?? `The prompt ${p.name} of the MCP server ${c.config.name}`,
            arguments: (p.arguments ?? []).map((a) => ({
              name: a.name,
              ...(a.description ? { description: a.description } : {}),
              required: a.required === true,
            })),
          });
      } catch (e) {
        if (!(e instanceof McpCallError)) throw e;
        problems.push(e.message);
      }
    }),
  );
  const order = manager.connectionsInUse().map((c) => c.config.name);
  prompts.sort((a, b) => order.indexOf(a.server) - order.indexOf(b.server) || a.prompt.localeCompare(b.prompt));
  return { prompts, problems };
}

/** What a list shows beside a prompt: its arguments, `[optional]` in brackets. */
export function mcpPromptHint(p: McpPromptInfo): string | undefined {
  if (!p.arguments.length) return undefined;
  return p.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
}

/**
 * The typed words as the prompt's arguments: `name=value` pairs when every word is one for a declared name,
 * otherwise the words in declared order, the last argument taking the rest. A missing required argument is an error.
 */
export function mapPromptArguments(
  p: McpPromptInfo,
  typed: string,
): { ok: true; args: Record<string, string> } | { ok: false; message: string } {
  const words = shellWords(typed.trim());
  const declared = p.arguments.map((a) => a.name);
  const args: Record<string, string> = {};
  const named = words.length > 0 && words.every((w) => declared.includes(w.slice(0, w.indexOf('='))));
  if (named) for (const w of words) args[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  else {
    if (words.length && !declared.length)
      return { ok: false, message: `/${p.name} takes no arguments; send it alone.` };
    declared.forEach((name, i) => {
      const value = i === declared.length - 1 ? words.slice(i).join(' ') : words[i];
      if (value) args[name] = value;
    });
  }
  const missing = p.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length) {
    const usage = `/${p.name} ${mcpPromptHint(p) ?? ''}`.trim();
    return { ok: false, message: `/${p.name} needs ${missing.join(', ')} (usage: ${usage}).` };
  }
  return { ok: true, args };
}

interface PromptMessage {
  role: string;
  content: { type: string; text?: string; resource?: { uri: string; text?: string; mimeType?: string } };
}

/** A prompt's messages as the text of one user message; an image or other binary part is said, not sent. */
export function promptMessagesText(messages: readonly PromptMessage[]): string {
  return messages
    .map((m) => {
      const c = m.content;
      const text =
        c.type === 'text'
          ? (c.text ?? '')
          : c.type === 'resource' && c.resource?.text !== undefined
            ? `<resource uri="${c.resource.uri}">\n${c.resource.text}\n</resource>`
            : `[the prompt's ${c.type} part${c.resource ? ` ${c.resource.uri}` : ''} is not included: only text is]`;
      return m.role === 'assistant' ? `(assistant) ${text}` : text;
    })
    .join('\n\n');
}

/** Whether `input` starts with `/mcp__<server>__` for one of `servers` (its prompts are known once it started). */
export function namesMcpServer(input: string, servers: readonly string[]): boolean {
  const first = /^\/(mcp__\S+)/.exec(input.trim())?.[1];
  return first !== undefined && servers.some((s) => first.startsWith(mcpPromptName(s, '')));
}

export type McpPromptCommand =
  { ok: true; prompt: McpPromptInfo; text: string } | { ok: false; message: string } | undefined;

/**
 * `/mcp__<server>__<prompt> args` → the prompt's text from its server; undefined when the text is no such command
 * (its first word does not start with `/mcp__`). Waits for the servers' start first.
 */
export async function runMcpPromptCommand(input: string, manager: McpManager | undefined): Promise<McpPromptCommand> {
  const m = /^\/(mcp__\S+)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (!m || !manager) return undefined;
  // The server whose name the command starts with (the longest, should one name begin another's).
  const server = manager
    .connectionsInUse()
    .filter((c) => m[1].startsWith(mcpPromptName(c.config.name, '')))
    .sort((a, b) => b.config.name.length - a.config.name.length)[0];
  if (!server) return undefined;
  await manager.ready();
  // A lazy server (tools from its cached list) starts now: its prompts are not cached.
  if (server.state === 'lazy') await server.start();
  const { prompts, problems } = await listMcpPrompts(manager);
  const prompt = prompts.find((p) => p.name === m[1]);
  if (!prompt) {
    const own = prompts.filter((p) => p.server === server.config.name).map((p) => `/${p.name}`);
    const why = server.state !== 'ready' ? ` It is ${server.state}${server.error ? `: ${server.error}` : ''}.` : '';
    const list = own.length ? ` Its prompts: ${own.join(', ')}.` : ' It offers no prompts.';
    const trouble = problems.length ? ` (${problems.join('; ')})` : '';
    return {
      ok: false,
      message: `The MCP server "${server.config.name}" has no prompt /${m[1]}.${why}${list}${trouble}`,
    };
  }
  const mapped = mapPromptArguments(prompt, m[2] ?? '');
  if (!mapped.ok) return mapped;
  const connection = manager.connectionsInUse().find((c) => c.config.name === prompt.server)!;
  try {
    const result = await connection.request(`the prompt ${prompt.prompt}`, (client, timeout) =>
      client.getPrompt({ name: prompt.prompt, arguments: mapped.args }, { timeout }),
    );
    return { ok: true, prompt, text: promptMessagesText(result.messages as PromptMessage[]) };
  } catch (e) {
    if (!(e instanceof McpCallError)) throw e;
    return { ok: false, message: e.message };
  }
}
