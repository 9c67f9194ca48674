// The image_generation and audio_generation plugins (docs/plugins-official.md): their built MCP servers,
// copied out of the repository the way a managed plugin copy is (so nothing resolves from node_modules),
// driven by the official MCP SDK client over stdio against loopback fixture endpoints.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMediaFileTool } from '../../src/tools/file';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { makeToolHarness } from '../helpers/toolHarness';

const DIST_PLUGINS = resolve(__dirname, '../../dist/plugins');

let endpoint: FixtureServer;
let png: Buffer;
/** What the fixture answers next on each route. */
const next: Record<string, (res: import('node:http').ServerResponse) => void> = {};

beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#cc3366' } })
    .png()
    .toBuffer();
  endpoint = await startFixtureServer({
    '/v1/images/generations': (_req, res) => next.images(res),
    '/v1/audio/speech': (_req, res) => next.speech(res),
    '/files/picture.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png),
  });
});
afterAll(async () => {
  await endpoint.close();
});

const json = (status: number, body: unknown) => (res: import('node:http').ServerResponse) =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

interface Plugin {
  client: Client;
  stderr: () => string;
  cwd: string;
  close(): Promise<void>;
}

/** The built plugin copied to a managed-style folder, its server started in a fresh project folder. */
async function startPlugin(id: string, opts: { config?: string; env?: Record<string, string> } = {}): Promise<Plugin> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-plugin-')));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const managed = join(home, 'plugins', 'managed', id);
  mkdirSync(cwd, { recursive: true });
  cpSync(join(DIST_PLUGINS, id), managed, { recursive: true });
  if (opts.config !== undefined) writeFileSync(join(home, 'config.toml'), opts.config);
  const manifest = JSON.parse(readFileSync(join(managed, 'jarvis.plugin.json'), 'utf8')) as {
    mcpServers: Record<string, { command: string; args?: string[] }>;
  };
  const [server] = Object.values(manifest.mcpServers);
  // As the plugin loader starts it: a `./` command run in the plugin's root, told the session's folder.
  expect(server.command.startsWith('./')).toBe(true);
  const transport = new StdioClientTransport({
    command: join(managed, server.command),
    args: server.args ?? [],
    // The server's shebang finds node on PATH.
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: home,
      JARVIS_CODE_HOME: home,
      JARVIS_PLUGIN_ROOT: managed,
      JARVIS_PROJECT_DIR: cwd,
      ...opts.env,
    },
    cwd: managed,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, cwd, close: () => client.close() };
}

const textOf = (r: Awaited<ReturnType<Client['callTool']>>) =>
  (r.content as Array<{ type: string; text: string }>).map((c) => c.text).join('\n');
const lastHit = () => endpoint.hits.at(-1)!;

describe('image_generation', { timeout: 60_000 }, () => {
  it('is built as a self-contained plugin folder', () => {
    expect(readdirSync(join(DIST_PLUGINS, 'image_generation')).sort()).toEqual(['bin', 'jarvis.plugin.json']);
    expect(existsSync(join(DIST_PLUGINS, 'image_generation', 'bin', 'server.mjs'))).toBe(true);
  });

  it('offers no tool until it is configured, and says how to configure it', async () => {
    const p = await startPlugin('image_generation');
    try {
      expect(p.client.getServerCapabilities()?.tools).toBeUndefined();
      await expect
        .poll(p.stderr)
        .toContain('image_generation is not configured: set base_url (and api_key) in [services.image_generation]');
    } finally {
      await p.close();
    }
  });

  it('sends the OpenAI request, saves every image in the working directory (viewable with ReadMediaFile)', async () => {
    const p = await startPlugin('image_generation', {
      config: `[services.image_generation]\nbase_url = "${endpoint.url}/v1"\napi_key = "sk-image"\nmodel = "img-model"\n`,
    });
    try {
      const { tools } = await p.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['generate_image']);
      expect(tools[0].annotations?.readOnlyHint).toBe(false);
      next.images = json(200, {
        created: 1,
        data: [
          { b64_json: png.toString('base64'), revised_prompt: 'a pink square, flat' },
          { url: `${endpoint.url}/files/picture.png` },
        ],
      });
      const r = await p.client.callTool({
        name: 'generate_image',
        arguments: { prompt: 'a pink square', n: 2, size: '1024x1024', path: 'art/square' },
      });
      expect(r.isError).toBeFalsy();
      const request = endpoint.hits.find((h) => h.path === '/v1/images/generations')!;
      expect(request.method).toBe('POST');
      expect(request.headers.authorization).toBe('Bearer sk-image');
      expect(JSON.parse(request.body)).toEqual({
        model: 'img-model',
        prompt: 'a pink square',
        n: 2,
        size: '1024x1024',
      });
      const first = join(p.cwd, 'art', 'square.png');
      const second = join(p.cwd, 'art', 'square-2.png');
      expect(textOf(r)).toContain(`- ${first} (png, ${png.length} bytes)`);
      expect(textOf(r)).toContain(`- ${second} (png, ${png.length} bytes)`);
      expect(textOf(r)).toContain('The model revised the prompt to: a pink square, flat');
      expect(readFileSync(first)).toEqual(png);
      expect(readFileSync(second)).toEqual(png);
      const h = makeToolHarness({ cwd: p.cwd });
      const media = await h.run(readMediaFileTool, { path: 'art/square.png' });
      expect(media.isError).toBeFalsy();
      expect(media.content).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'image', mediaType: 'image/png' })]),
      );
    } finally {
      await p.close();
    }
  });

  it('4xx and 5xx answers, a non-image answer and a path outside the project are clear errors; nothing is saved', async () => {
    const p = await startPlugin('image_generation', {
      env: { JARVIS_IMAGE_GENERATION_BASE_URL: `${endpoint.url}/v1`, JARVIS_IMAGE_GENERATION_API_KEY: 'sk-env' },
    });
    try {
      next.images = json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      const denied = await p.client.callTool({ name: 'generate_image', arguments: { prompt: 'x' } });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toBe(
        `${endpoint.url}/v1/images/generations answered HTTP 401 Unauthorized: Incorrect API key provided — the API key was refused; check api_key.`,
      );
      expect(lastHit().headers.authorization).toBe('Bearer sk-env');
      expect(JSON.parse(lastHit().body).model).toBe('gpt-image-1');
      next.images = (res) => void res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>upstream down</h1>');
      const down = await p.client.callTool({ name: 'generate_image', arguments: { prompt: 'x' } });
      expect(textOf(down)).toMatch(
        /answered HTTP 503 Service Unavailable: <h1>upstream down<\/h1> — the service failed; try again later\.$/,
      );
      next.images = json(200, { data: [{ b64_json: Buffer.from('not an image at all').toString('base64') }] });
      expect(textOf(await p.client.callTool({ name: 'generate_image', arguments: { prompt: 'x' } }))).toContain(
        'is not a PNG, JPEG, WebP or GIF image',
      );
      const hits = endpoint.hits.length;
      const escape = await p.client.callTool({
        name: 'generate_image',
        arguments: { prompt: 'x', path: '../outside.png' },
      });
      expect(escape.isError).toBe(true);
      expect(textOf(escape)).toContain('is outside the working directory');
      expect(endpoint.hits.length).toBe(hits);
      expect(existsSync(join(p.cwd, 'generated'))).toBe(false);
    } finally {
      await p.close();
    }
  });
});

describe('audio_generation', { timeout: 60_000 }, () => {
  it('sends the speech request and saves the audio; errors are clear', async () => {
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(64, 1)]);
    const p = await startPlugin('audio_generation', {
      config: `[services.audio_generation]\nbase_url = "${endpoint.url}/v1"\napi_key = "sk-audio"\nvoice = "coral"\n`,
    });
    try {
      expect((await p.client.listTools()).tools.map((t) => t.name)).toEqual(['generate_speech']);
      next.speech = (res) => void res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
      const r = await p.client.callTool({
        name: 'generate_speech',
        arguments: { text: 'Hello there', format: 'wav', speed: 1.25, instructions: 'cheerful' },
      });
      expect(r.isError).toBeFalsy();
      const request = lastHit();
      expect(request.path).toBe('/v1/audio/speech');
      expect(request.headers.authorization).toBe('Bearer sk-audio');
      expect(JSON.parse(request.body)).toEqual({
        model: 'gpt-4o-mini-tts',
        input: 'Hello there',
        voice: 'coral',
        response_format: 'wav',
        instructions: 'cheerful',
        speed: 1.25,
      });
      const saved = /to (\/\S+\.wav)\.$/.exec(textOf(r))![1];
      expect(saved.startsWith(join(p.cwd, 'generated', 'speech-'))).toBe(true);
      expect(readFileSync(saved)).toEqual(wav);
      next.speech = json(400, { error: { message: "Invalid voice 'robot'" } });
      expect(
        textOf(await p.client.callTool({ name: 'generate_speech', arguments: { text: 'x', voice: 'robot' } })),
      ).toContain("answered HTTP 400 Bad Request: Invalid voice 'robot' — the endpoint refused the arguments");
      next.speech = json(200, { note: 'this is not audio' });
      expect(textOf(await p.client.callTool({ name: 'generate_speech', arguments: { text: 'x' } }))).toContain(
        'answered application/json instead of audio',
      );
      next.speech = json(500, { error: { message: 'boom' } });
      expect(
        textOf(await p.client.callTool({ name: 'generate_speech', arguments: { text: 'x', path: 'out/voice.mp3' } })),
      ).toContain('HTTP 500 Internal Server Error: boom — the service failed; try again later.');
      expect(existsSync(join(p.cwd, 'out'))).toBe(false);
      const tooLong = await p.client.callTool({ name: 'generate_speech', arguments: { text: 'a'.repeat(5000) } });
      expect(tooLong.isError).toBe(true);
    } finally {
      await p.close();
    }
  });

  it('a broken config.toml makes every call say how to fix it', async () => {
    const p = await startPlugin('audio_generation', { config: '[services.audio_generation\nbase_url = 1\n' });
    try {
      const r = await p.client.callTool({ name: 'generate_speech', arguments: { text: 'x' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(
        /^audio_generation cannot read its settings: .* — fix .*config\.toml \(jarvis doctor checks it\), then run \/reload\.$/,
      );
    } finally {
      await p.close();
    }
  });
});
