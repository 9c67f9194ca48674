// The bundled jarvis-documents MCP server as the tests meet it: the built file in dist/ (what ships and
// what a managed copy runs), spoken to over stdio with the official MCP SDK client, in a folder of the
// test's own. Pixel checks read the rendered PNGs with sharp.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { requireSystemPart } from './requireAll';

export const DOCUMENTS_PLUGIN_DIR = resolve(__dirname, '../../dist/plugins/jarvis-documents');
export const DOCUMENTS_SERVER = join(DOCUMENTS_PLUGIN_DIR, 'bin/server.mjs');

/** Rendering needs Chromium; the other tools do not. */
export function chromiumAvailable(): boolean {
  return requireSystemPart('chromium', 'jarvis-documents renders pages in headless Chromium');
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
}

export class DocumentsServer {
  private constructor(
    private readonly client: Client,
    readonly dir: string,
  ) {}

  /** Starts the built server with its working directory in a fresh temporary folder. */
  static async start(): Promise<DocumentsServer> {
    if (!existsSync(DOCUMENTS_SERVER))
      throw new Error(`${DOCUMENTS_SERVER} is missing: run node scripts/build.mjs first`);
    const dir = mkdtempSync(join(tmpdir(), 'documents-'));
    const client = new Client({ name: 'documents-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: DOCUMENTS_SERVER,
        cwd: dir,
        stderr: 'ignore',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: dir },
      }),
    );
    return new DocumentsServer(client, dir);
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const content = result.content as { type: string; text?: string }[];
    return { text: content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true };
  }

  /** Calls a tool that must succeed; a tool error fails the test with its message. */
  async ok(name: string, args: Record<string, unknown>): Promise<string> {
    const answer = await this.call(name, args);
    if (answer.isError) throw new Error(`${name} failed: ${answer.text}`);
    return answer.text;
  }

  async tools(): Promise<{ name: string; annotations?: { readOnlyHint?: boolean } }[]> {
    return (await this.client.listTools()).tools;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
}

export async function readPng(path: string): Promise<Pixels> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x, y) => {
      const i = (Math.floor(y) * info.width + Math.floor(x)) * info.channels;
      return [data[i], data[i + 1], data[i + 2]];
    },
  };
}

/** How many pixels of a region are close to a colour (each channel within `tolerance`). */
export function countColour(
  png: Pixels,
  colour: [number, number, number],
  region = { x: 0, y: 0, w: png.width, h: png.height },
  tolerance = 12,
): number {
  let count = 0;
  for (let y = region.y; y < region.y + region.h; y++) {
    for (let x = region.x; x < region.x + region.w; x++) {
      const p = png.at(x, y);
      if (p.every((v, i) => Math.abs(v - colour[i]) <= tolerance)) count++;
    }
  }
  return count;
}

/** Pixels that are clearly not white (ink). */
export function countInk(png: Pixels, region = { x: 0, y: 0, w: png.width, h: png.height }): number {
  let count = 0;
  for (let y = region.y; y < region.y + region.h; y++) {
    for (let x = region.x; x < region.x + region.w; x++) if (png.at(x, y).some((v) => v < 160)) count++;
  }
  return count;
}

/** The PNG path a render_document answer names. */
export function renderedPath(answer: string): string {
  const match = /to (\S+\.png) \(/.exec(answer);
  if (!match) throw new Error(`no PNG path in: ${answer}`);
  return match[1];
}
