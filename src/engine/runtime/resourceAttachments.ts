// `@<server>:<uri>` in a prompt attaches that MCP server's resource (docs/mcp.md "Prompts and resources"), as `@path`
// attaches a file (promptAttachments.ts): its text after the prompt in a tagged part, bounded as the Read tool bounds a
// file (lines and bytes, with a note when cut). A binary resource (an image, a PDF…) is not attached: the notice says
// what it is and that the agent can read it with ReadMcpResource. A mention whose first part names no MCP server of
// the session is text (`@user:pass` stays as typed). The user naming the resource is the approval, as naming a file
// in the workspace is; a deny or ask rule on `ReadMcpResource(<server>:<uri>)` still holds.
import { READ_MAX_BYTES, READ_MAX_LINES } from '../../tools/file/readTool';
import type { McpResourceAccess, McpResourceContent } from '../../tools/mcp';
import { attachmentTag } from '../context/attachmentTags';
import type { PolicyDecision } from '../policy/approvals';
import type { ContentPart } from '../../llm/types';

export interface ResourceMention {
  server: string;
  uri: string;
}

/** The server and URI a mention names, when its part before the first `:` is one of `servers`. */
export function resourceMention(mention: string, servers: readonly string[]): ResourceMention | undefined {
  const colon = mention.indexOf(':');
  if (colon <= 0) return undefined;
  const server = mention.slice(0, colon);
  const uri = mention.slice(colon + 1);
  return uri && servers.includes(server) ? { server, uri } : undefined;
}

/** The subject approval rules match for reading a resource (the same as ReadMcpResource's). */
export function resourceSubject(m: ResourceMention): string {
  return `ReadMcpResource(${m.server}:${m.uri})`;
}

/** A text cut to the Read tool's per-call limits, with a note saying how much there was. */
export function boundedResourceText(text: string): { body: string; lines: number; cut: boolean } {
  const all = text.split('\n');
  let kept = all.slice(0, READ_MAX_LINES);
  let body = kept.join('\n');
  while (Buffer.byteLength(body) > READ_MAX_BYTES && kept.length > 1) {
    kept = kept.slice(0, Math.max(1, Math.floor(kept.length / 2)));
    body = kept.join('\n');
  }
  if (Buffer.byteLength(body) > READ_MAX_BYTES) body = Buffer.from(body).subarray(0, READ_MAX_BYTES).toString('utf8');
  const cut = body.length < text.length;
  if (cut)
    body +=
      `\n[Truncated: the resource has ${all.length} lines, ${Buffer.byteLength(text)} bytes; this attachment shows ` +
      `${kept.length} lines (the ${READ_MAX_LINES}-line, ${READ_MAX_BYTES / 1024} KB limit of an attachment). ` +
      'Read it all with ReadMcpResource.]';
  return { body, lines: all.length, cut };
}

function binaryNote(c: McpResourceContent): string {
  const bytes = Math.floor(((c.blob?.length ?? 0) * 3) / 4);
  return `${c.uri} is binary content (${c.mimeType ?? 'no type given'}, about ${bytes} bytes)`;
}

/** The resource's parts and chip label, or why it was not attached. */
export async function attachResource(
  m: ResourceMention,
  access: McpResourceAccess,
  judge: (subject: string) => PolicyDecision,
  signal: AbortSignal,
): Promise<{ parts: ContentPart[]; label: string } | { notice: string }> {
  const named = `@${m.server}:${m.uri}`;
  const decision = judge(resourceSubject(m));
  if (decision.decision !== 'allow') {
    const why = decision.reason ?? decision.by;
    const after =
      decision.decision === 'ask' ? ' The agent can still read it with ReadMcpResource, which asks you first.' : '';
    return { notice: `${named} was not attached: ${why}.${after}` };
  }
  const contents = await access.read(m.server, m.uri, signal);
  if ('error' in contents) return { notice: `${named} was not attached: ${contents.error}` };
  const binary = contents.filter((c) => c.text === undefined);
  if (binary.length)
    return {
      notice:
        `${named} was not attached: ${binary.map(binaryNote).join('; ')}; only text resources are attached. ` +
        'The agent can read it with ReadMcpResource.',
    };
  if (!contents.length) return { notice: `${named} was not attached: the server returned no content for it.` };
  const text = contents.map((c) => c.text!).join('\n\n');
  const { body, lines, cut } = boundedResourceText(text);
  const type = contents[0].mimeType ? `${contents[0].mimeType}, ` : '';
  const label = `${type}${lines} line${lines === 1 ? '' : 's'}${cut ? ', cut' : ''}`;
  return { parts: [{ type: 'text', text: attachmentTag('resource', `${m.server}:${m.uri}`, label, body) }], label };
}
