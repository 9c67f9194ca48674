// The file tool group: Read, Write, Edit, Grep, Glob, ReadMediaFile.
import type { Tool } from '../defineTool';
import { editTool } from './editTool';
import { globTool } from './globTool';
import { grepTool } from './grepTool';
import { readMediaFileTool } from './readMediaFileTool';
import { readTool } from './readTool';
import { writeTool } from './writeTool';

export const fileTools: Tool[] = [readTool, writeTool, editTool, grepTool, globTool, readMediaFileTool];

export { readTool, READ_MAX_BYTES, READ_MAX_LINE_CHARS, READ_MAX_LINES, READ_MAX_TAIL_LINES } from './readTool';
export { writeTool } from './writeTool';
export { editTool } from './editTool';
export {
  createGrepTool,
  grepTool,
  GREP_DEFAULT_HEAD_LIMIT,
  GREP_MAX_COLUMNS,
  GREP_TIMEOUT_MS,
  type GrepToolOptions,
} from './grepTool';
export { globTool, GLOB_MAX_RESULTS } from './globTool';
export {
  readMediaFileTool,
  IMAGE_LIMITS,
  IMAGE_MAX_EDGE_PX,
  IMAGE_READ_BYTE_BUDGET,
  MEDIA_MAX_FILE_BYTES,
  MODEL_MEDIA_INPUT,
  type ImageLimits,
} from './readMediaFileTool';
export { isSensitivePath, isInVcsDir, VCS_DIRS } from './sensitivePaths';
