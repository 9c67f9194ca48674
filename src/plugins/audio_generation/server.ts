// The audio_generation plugin's MCP server (stdio), built by scripts/build.mjs into the self-contained
// dist/plugins/audio_generation/bin/server.mjs. One tool, generate_speech: POST <base_url>/audio/speech
// (OpenAI's shape), the audio saved in the working directory. Behaviour: docs/plugins-official.md.
import { z } from 'zod';
import { answer, serveGeneration } from '../mediaGeneration/generationServer';
import type { GenerationEndpoint } from '../mediaGeneration/generationEndpoint';
import { GenerationError, postJson, readBytes } from '../mediaGeneration/endpointRequest';
import { outputPath, workingDirectory, writeWhole } from '../mediaGeneration/outputFiles';

const VERSION = '1.0.0';
const DEFAULT_SPEECH_MODEL = 'gpt-4o-mini-tts';
const DEFAULT_VOICE = 'alloy';
/** OpenAI's limit on `input`. */
const MAX_INPUT_CHARS = 4_096;
const FORMATS = ['mp3', 'wav', 'opus', 'aac', 'flac', 'pcm'] as const;

const shape = {
  text: z
    .string()
    .trim()
    .min(1)
    .max(MAX_INPUT_CHARS, `text may be at most ${MAX_INPUT_CHARS} characters; split it into several files`)
    .describe('What is said.'),
  voice: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      'The voice (default: [services.audio_generation] voice, else alloy), e.g. alloy, ash, coral, echo, nova, onyx, sage, shimmer',
    ),
  instructions: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('How it is said: tone, pace, accent, emotion (models that support it)'),
  format: z.enum(FORMATS).optional().describe('Audio format (default mp3)'),
  speed: z.number().min(0.25).max(4).optional().describe('0.25-4 (default 1)'),
  path: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Where to save it, relative to the working directory (default generated/speech-<time>.<format>)'),
};

type SpeechArgs = {
  text: string;
  voice?: string;
  instructions?: string;
  format?: (typeof FORMATS)[number];
  speed?: number;
  path?: string;
};

async function generateSpeech(endpoint: GenerationEndpoint, args: SpeechArgs): Promise<string> {
  const format = args.format ?? 'mp3';
  // Checked before the (paid) request, so a bad path costs nothing.
  const path = outputPath(workingDirectory(), args.path, 'generated', 'speech', format);
  const model = endpoint.model ?? DEFAULT_SPEECH_MODEL;
  const voice = args.voice ?? endpoint.voice ?? DEFAULT_VOICE;
  const body: Record<string, unknown> = {
    model,
    input: args.text,
    voice,
    response_format: format,
    ...(args.instructions ? { instructions: args.instructions } : {}),
    ...(args.speed !== undefined ? { speed: args.speed } : {}),
  };
  const response = await postJson(endpoint, '/audio/speech', body);
  const type = response.headers.get('content-type') ?? '';
  // A 200 with JSON or HTML is an error page or a different API, never audio.
  if (/json|html|text\//i.test(type)) {
    const text = (await response.text()).slice(0, 300);
    throw new GenerationError(`${endpoint.baseUrl}/audio/speech answered ${type} instead of audio: ${text}`);
  }
  const bytes = await readBytes(response, 'the audio');
  if (!bytes.length)
    throw new GenerationError(`${endpoint.baseUrl}/audio/speech answered an empty body; nothing was saved.`);
  writeWhole(path, bytes);
  return `Saved speech by ${model} (voice ${voice}, ${format}, ${bytes.length} bytes) to ${path}.`;
}

await serveGeneration('audio_generation', VERSION, (server, endpoint) => {
  server.registerTool(
    'generate_speech',
    {
      description:
        'Turn text into spoken audio with the configured speech model and save the file in the working directory. Answers the saved path.',
      inputSchema: shape,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    answer(endpoint, (e, args: SpeechArgs) => generateSpeech(e, args)),
  );
});
