// The image_generation plugin's MCP server (stdio), built by scripts/build.mjs into the self-contained
// dist/plugins/image_generation/bin/server.mjs. One tool, generate_image: POST <base_url>/images/generations
// (OpenAI's shape), images saved in the working directory. Behaviour: docs/plugins-official.md.
import { z } from 'zod';
import { answer, serveGeneration } from '../mediaGeneration/generationServer';
import type { GenerationEndpoint } from '../mediaGeneration/generationEndpoint';
import { GenerationError, postJson, readBytes, REQUEST_TIMEOUT_MS } from '../mediaGeneration/endpointRequest';
import { numbered, outputPath, workingDirectory, writeWhole } from '../mediaGeneration/outputFiles';

const VERSION = '1.0.0';
const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
const MAX_IMAGES = 4;

const shape = {
  prompt: z
    .string()
    .trim()
    .min(1)
    .max(32_000)
    .describe('What the image shows: subject, style, composition, colours, text in it.'),
  path: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      'Where to save it, relative to the working directory (default generated/image-<time>.png); the second and later images get -2, -3…',
    ),
  size: z
    .string()
    .regex(/^(\d{2,5}x\d{2,5}|auto)$/, 'size is WIDTHxHEIGHT (e.g. 1024x1024) or auto')
    .optional()
    .describe('WIDTHxHEIGHT the model supports, e.g. 1024x1024, 1536x1024, 1024x1536, or auto'),
  n: z.number().int().min(1).max(MAX_IMAGES).optional().describe(`How many images (1-${MAX_IMAGES}; default 1)`),
  quality: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("The model's quality setting, e.g. low, medium, high, hd, standard"),
};

/** What the bytes are, from their first bytes (the name's extension follows the content). */
function imageType(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  return undefined;
}

interface ImagesAnswer {
  data?: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>;
}

async function imageBytes(item: { b64_json?: string; url?: string }, index: number): Promise<Buffer> {
  if (item.b64_json) return Buffer.from(item.b64_json, 'base64');
  if (item.url) {
    let response: Response;
    try {
      response = await fetch(item.url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (e) {
      throw new GenerationError(
        `Image ${index + 1} was made, but downloading it from ${item.url} failed: ${(e as Error).message}.`,
      );
    }
    if (!response.ok)
      throw new GenerationError(
        `Image ${index + 1} was made, but ${item.url} answered HTTP ${response.status} when downloading it.`,
      );
    return readBytes(response, `image ${index + 1}`);
  }
  throw new GenerationError(`The images endpoint answered image ${index + 1} with neither b64_json nor url.`);
}

async function generateImage(
  endpoint: GenerationEndpoint,
  args: { prompt: string; path?: string; size?: string; n?: number; quality?: string },
  cwd = workingDirectory(),
): Promise<string> {
  const n = args.n ?? 1;
  // Checked before the (paid) request, so a bad path costs nothing.
  outputPath(cwd, args.path, 'generated', 'image', 'png');
  const model = endpoint.model ?? DEFAULT_IMAGE_MODEL;
  const body: Record<string, unknown> = {
    model,
    prompt: args.prompt,
    n,
    ...(args.size ? { size: args.size } : {}),
    ...(args.quality ? { quality: args.quality } : {}),
  };
  const response = await postJson(endpoint, '/images/generations', body);
  let parsed: ImagesAnswer;
  try {
    parsed = (await response.json()) as ImagesAnswer;
  } catch {
    throw new GenerationError(
      `${endpoint.baseUrl}/images/generations answered something that is not JSON; is base_url an OpenAI-compatible images API?`,
    );
  }
  const items = parsed.data ?? [];
  if (!items.length)
    throw new GenerationError(`${endpoint.baseUrl}/images/generations answered no images (empty "data").`);
  const saved: string[] = [];
  let revised: string | undefined;
  for (const [i, item] of items.entries()) {
    const bytes = await imageBytes(item, i);
    const type = imageType(bytes);
    if (!type)
      throw new GenerationError(
        `Image ${i + 1} from ${endpoint.baseUrl} is not a PNG, JPEG, WebP or GIF image (${bytes.length} bytes); nothing was saved for it.`,
      );
    const path = numbered(outputPath(cwd, args.path, 'generated', 'image', type), i);
    writeWhole(path, bytes);
    saved.push(`${path} (${type}, ${bytes.length} bytes)`);
    revised ??= item.revised_prompt;
  }
  const lines = [
    `Saved ${saved.length} image${saved.length === 1 ? '' : 's'} made by ${model}:`,
    ...saved.map((s) => `- ${s}`),
    'Look at an image with ReadMediaFile.',
  ];
  if (revised) lines.push(`The model revised the prompt to: ${revised}`);
  return lines.join('\n');
}

await serveGeneration('image_generation', VERSION, (server, endpoint) => {
  server.registerTool(
    'generate_image',
    {
      description:
        'Create images from a text prompt with the configured image model and save them in the working directory. Answers the saved paths; look at them with ReadMediaFile.',
      inputSchema: shape,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    answer(endpoint, (e, args) => generateImage(e, args)),
  );
});
