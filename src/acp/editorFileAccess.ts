// The editor's files (`fs/read_text_file`, `fs/write_text_file`) for the session's tools, when the
// client offers them in `initialize` (docs/acp.md): reads see unsaved buffers, writes land in the editor.
import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type { EditorFiles } from '../tools/file/editorFiles';

export function editorFileAccess(
  client: AgentContext,
  capabilities: ClientCapabilities,
  sessionId: () => string,
): EditorFiles | undefined {
  const canRead = capabilities.fs?.readTextFile === true;
  const canWrite = capabilities.fs?.writeTextFile === true;
  if (!canRead && !canWrite) return undefined;
  return {
    canRead,
    canWrite,
    async readText(path, signal) {
      const response = await client.request(
        'fs/read_text_file',
        { sessionId: sessionId(), path },
        { cancellationSignal: signal },
      );
      return response.content;
    },
    async writeText(path, text, signal) {
      await client.request(
        'fs/write_text_file',
        { sessionId: sessionId(), path, content: text },
        { cancellationSignal: signal },
      );
    },
  };
}
