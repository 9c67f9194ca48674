// What a server prompt carries besides its text (docs/server.md "Prompts with images and files"): pasted images,
// sent as base64 content parts, and `@path` mentions. Both are attached the way the terminal UI attaches them
// (engine/runtime/promptAttachments.ts): an image goes through ReadMediaFile (its bytes must be the image type
// declared, downscaled to the session's limits, refused when the model takes no images) and a mention through
// the same read rules (a file that would need a yes is not attached, and the reason is said).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachMediaFile, attachMentions, runtimeAttachmentEnv } from '../engine/runtime/promptAttachments';
import type { Runtime } from '../engine/runtime/runtime';
import type { PermissionRule } from '../engine/policy/approvals';
import type { ContentPart } from '../llm/types';
import { detectMedia } from '../tools/file/mediaTypes';
import { ApiError, Codes } from './envelope';

/** The image types a prompt may carry (what models take). */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** At most this many images per prompt, each at most this many bytes once decoded. */
export const MAX_PROMPT_IMAGES = 4;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The prompts route takes bodies up to this size (base64 is 4/3 of the bytes, plus the text). */
export const PROMPT_BODY_LIMIT = Math.ceil((MAX_PROMPT_IMAGES * MAX_IMAGE_BYTES * 4) / 3) + 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** One image part checked: strict base64 within the cap, its bytes the declared type. Refused with what is wrong. */
export function decodeImage(part: { media_type: string; data: string }, index: number): Buffer {
  const which = `image ${index + 1}`;
  if (part.data.length % 4 !== 0 || !BASE64.test(part.data))
    throw new ApiError(Codes.validation, `${which}: data must be plain base64 (no data: prefix, no line breaks)`);
  const bytes = Buffer.from(part.data, 'base64');
  if (bytes.length === 0) throw new ApiError(Codes.validation, `${which} is empty`);
  if (bytes.length > MAX_IMAGE_BYTES)
    throw new ApiError(
      Codes.validation,
      `${which} is ${bytes.length} bytes; at most ${MAX_IMAGE_BYTES} are taken (downscale it first)`,
    );
  const found = detectMedia(bytes.subarray(0, 64), '');
  if (!found || found.kind !== 'image' || found.mediaType !== part.media_type)
    throw new ApiError(
      Codes.validation,
      `${which} is declared ${part.media_type} but its bytes are ${found ? found.mediaType : 'no image type known'}`,
    );
  return bytes;
}

/** The images and `@path` mentions of a prompt as content parts, and what could not be attached. */
export async function attachPromptInputs(
  text: string,
  images: readonly Buffer[],
  ctx: { runtime: Runtime; rules: readonly PermissionRule[]; cwd: string; signal: AbortSignal },
): Promise<{ parts: ContentPart[]; notices: string[] }> {
  const env = runtimeAttachmentEnv(ctx.runtime, ctx.rules, ctx.cwd, ctx.signal);
  const parts: ContentPart[] = [];
  const notices: string[] = [];
  if (images.length) {
    // ReadMediaFile reads files: each image is written to a private temporary folder for it, then removed.
    const dir = mkdtempSync(join(tmpdir(), 'jarvis-web-image-'));
    try {
      for (const [i, bytes] of images.entries()) {
        const file = join(dir, `image-${i + 1}`);
        writeFileSync(file, bytes, { mode: 0o600 });
        const attached = await attachMediaFile(file, `[image #${i + 1}]`, 'image', env, ctx.signal);
        if ('problem' in attached) notices.push(`[image #${i + 1}] was not attached: ${attached.problem}`);
        else parts.push(...attached.parts);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (text.includes('@')) {
    const mentioned = await attachMentions(text, env);
    parts.push(...mentioned.parts);
    notices.push(...mentioned.notices);
  }
  return { parts, notices };
}
