// What happens to a computer-use tool's result on its way to the model (docs/computer-use.md, "Screenshots"): each
// image is saved in the session folder (store/screenshots.ts) and named in the result — for the model, and as the
// card's display for front ends, which show its size and path — and the server's own first line (what was done)
// becomes the line front ends show for the call.
import type { ContentPart } from '../../llm/types';
import { formatBytes, saveScreenshot } from '../../store/screenshots';
import type { ToolDisplay, ToolResult } from '../../tools/defineTool';

/** Width and height from a PNG's header, or zeros for another format. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  const png = bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR';
  return png ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : { width: 0, height: 0 };
}

export async function keepDesktopImages(
  content: ContentPart[],
  result: Omit<ToolResult, 'content'>,
  where: { scratchDir: string; agentId: string },
): Promise<ToolResult> {
  const firstText = content.find((p) => p.type === 'text');
  const summary = firstText?.type === 'text' ? firstText.text.split('\n')[0] : result.summary;
  const out: ContentPart[] = [];
  let display: ToolDisplay | undefined;
  for (const part of content) {
    out.push(part);
    if (part.type !== 'image') continue;
    const bytes = Buffer.from(part.data, 'base64');
    const saved = await saveScreenshot(where.scratchDir, where.agentId, bytes, part.mediaType);
    if ('error' in saved) {
      out.push({
        type: 'text',
        text: `[The screenshot could not be kept in the session's scratch folder: ${saved.error}]`,
      });
      continue;
    }
    const { width, height } = pngSize(bytes);
    display ??= { kind: 'image', path: saved.path, bytes: bytes.length, width, height, mediaType: part.mediaType };
    const note = saved.sweepError ? `; ${saved.sweepError}` : '';
    out.push({
      type: 'text',
      text: `[Screenshot saved as ${saved.path} (${width}×${height}, ${formatBytes(bytes.length)})${note}]`,
    });
  }
  return { ...result, content: out, ...(summary ? { summary } : {}), ...(display ? { display } : {}) };
}
