// The jarvis-computer-use MCP server (stdio): the agent operates desktop applications on an X11 display
// (docs/computer-use.md). Built by scripts/build.mjs into one self-contained file. Each tool says in its `_meta`
// whether it only looks ("observe") or acts ("input"): Jarvis asks the user to authorize computer use once per
// session before the first such call, and never remembers an input action "for the session" (docs/approvals.md).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { KeyComboError } from '../../platform/x11/keyCombos';
import { StoppedError } from '../../platform/x11/x11Keyboard';
import { serveStdio } from '../shared/serveStdio';
import { Desktop, DesktopError } from './desktop';
import { OutsideScreenError, scaleOf, type ScreenSpace } from './screenSpace';
import click from './tools/click.md';
import drag from './tools/drag.md';
import focusWindow from './tools/focus_window.md';
import listWindows from './tools/list_windows.md';
import movePointer from './tools/move_pointer.md';
import pressKeys from './tools/press_keys.md';
import readClipboard from './tools/read_clipboard.md';
import safety from './tools/safety.md';
import screenshot from './tools/screenshot.md';
import scroll from './tools/scroll.md';
import typeText from './tools/type_text.md';
import waitText from './tools/wait.md';

const VERSION = '1.0.0';
export const MAX_TEXT_CHARS = 5_000;
const MAX_CLIPBOARD_BYTES = 100_000;

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
type Result = { content: Content[]; isError?: boolean };

const text = (t: string): Result => ({ content: [{ type: 'text', text: t }] });
const hex = (id: number) => `0x${id.toString(16).padStart(8, '0')}`;
const point = z.object({ x: z.number().int().min(0), y: z.number().int().min(0) });
const windowId = z.string().regex(/^(0x[0-9a-fA-F]+|\d+)$/, 'a window id from list_windows, e.g. 0x01c00003');
const parseId = (id: string) => (id.startsWith('0x') ? parseInt(id, 16) : Number(id));

/** Turns what an action threw into an answer the model can act on; anything unexpected keeps its message. */
function failure(e: unknown, what: string): Result {
  if (e instanceof StoppedError) {
    return {
      content: [
        {
          type: 'text',
          text: `Stopped by the user after ${e.done} step${e.done === 1 ? '' : 's'} of ${what}; nothing more was done.`,
        },
      ],
      isError: true,
    };
  }
  const known = e instanceof DesktopError || e instanceof KeyComboError || e instanceof OutsideScreenError;
  const message = e instanceof Error ? e.message : String(e);
  return { content: [{ type: 'text', text: known ? message : `${what} failed: ${message}` }], isError: true };
}

function spaceLine(space: ScreenSpace, display: string): string {
  return (
    `Display ${display}: screen ${space.screenWidth}×${space.screenHeight}, screenshot space ${space.width}×${space.height} ` +
    `(scale ${scaleOf(space)} screen px per screenshot px).`
  );
}

function createServer(desktop: Desktop): McpServer {
  const server = new McpServer({ name: 'jarvis-computer-use', version: VERSION });
  const observe = { annotations: { readOnlyHint: true, openWorldHint: true }, _meta: { 'jarvis/desktop': 'observe' } };
  const input = {
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    _meta: { 'jarvis/desktop': 'input' },
  };
  const warned = (description: string) => `${description.trim()}\n\n${safety.trim()}`;
  const xwaylandNote = desktop.xwayland
    ? '\nThis is a Wayland session seen through XWayland: only X11 applications can be seen and driven; native Wayland windows look black and take no input.'
    : '';

  server.registerTool(
    'screenshot',
    { description: screenshot.trim(), inputSchema: { window: windowId.optional() }, ...observe },
    async (a, extra) => {
      try {
        const shot = await desktop.screenshot(a.window === undefined ? undefined : parseId(a.window), extra.signal);
        const what = shot.window
          ? `Window ${hex(shot.window.id)} "${shot.window.title}" (${shot.window.app}): ${shot.rect.width}×${shot.rect.height} px at (${shot.rect.x}, ${shot.rect.y}) of the screenshot space — add that to points in this image.`
          : `Whole screen: ${shot.rect.width}×${shot.rect.height} px.`;
        return {
          content: [
            {
              type: 'text',
              text: `${what} ${spaceLine(shot.space, desktop.display)} The pointer is at (${shot.pointer.x}, ${shot.pointer.y}).${xwaylandNote}`,
            },
            { type: 'image', data: shot.png.toString('base64'), mimeType: 'image/png' },
          ],
        };
      } catch (e) {
        return failure(e, 'the screenshot');
      }
    },
  );

  server.registerTool(
    'list_windows',
    { description: listWindows.trim(), inputSchema: {}, ...observe },
    async (_a, extra) => {
      try {
        const { space, windows } = await desktop.windows(extra.signal);
        const rows = windows.map(
          (w) =>
            `${hex(w.id)}  "${w.title}"  app=${w.app || '?'}  at (${w.x}, ${w.y}) size ${w.width}×${w.height}` +
            `${w.focused ? '  [focused]' : ''}${w.minimized ? '  [minimized]' : ''}`,
        );
        return text(
          [
            `${windows.length} window${windows.length === 1 ? '' : 's'}, topmost first (positions in screenshot pixels). ${spaceLine(space, desktop.display)}${xwaylandNote}`,
            ...rows,
          ].join('\n'),
        );
      } catch (e) {
        return failure(e, 'listing the windows');
      }
    },
  );

  server.registerTool(
    'focus_window',
    { description: focusWindow.trim(), inputSchema: { window: windowId }, ...input },
    async (a, extra) => {
      try {
        const focused = await desktop.focus(parseId(a.window), extra.signal);
        return focused
          ? text(`Window ${a.window} is in front and has the keyboard focus.`)
          : {
              content: [
                {
                  type: 'text',
                  text: `Window ${a.window} was asked to come to the front but did not get the keyboard focus within 2 s (a dialog of its own, or the window manager refused). Check with list_windows or a screenshot.`,
                },
              ],
              isError: true,
            };
      } catch (e) {
        return failure(e, 'focusing the window');
      }
    },
  );

  server.registerTool(
    'move_pointer',
    { description: movePointer.trim(), inputSchema: point.shape, ...input },
    async (a, extra) => {
      try {
        const to = await desktop.move(a.x, a.y, extra.signal);
        return text(`Moved the pointer to (${a.x}, ${a.y}) (screen ${to.x}, ${to.y}).`);
      } catch (e) {
        return failure(e, 'moving the pointer');
      }
    },
  );

  const modifiers = z
    .array(z.enum(['shift', 'ctrl', 'alt', 'super']))
    .max(4)
    .default([]);
  server.registerTool(
    'click',
    {
      description: warned(click),
      inputSchema: {
        x: z.number().int().min(0).optional(),
        y: z.number().int().min(0).optional(),
        button: z.enum(['left', 'right', 'middle']).default('left'),
        count: z.number().int().min(1).max(3).default(1),
        modifiers,
      },
      ...input,
    },
    async (a, extra) => {
      try {
        if ((a.x === undefined) !== (a.y === undefined))
          throw new DesktopError('give both x and y, or neither (to click where the pointer is)');
        const where = a.x === undefined ? undefined : { x: a.x, y: a.y! };
        const to = await desktop.click(where, a.button, a.count, [...new Set(a.modifiers)], extra.signal);
        const held = a.modifiers.length ? ` with ${a.modifiers.join('+')}` : '';
        const times = a.count === 1 ? '' : ` ×${a.count}`;
        return text(
          `Clicked ${a.button}${times}${held} at ${where ? `(${where.x}, ${where.y})` : 'the pointer'} (screen ${to.x}, ${to.y}).`,
        );
      } catch (e) {
        return failure(e, 'the click');
      }
    },
  );

  server.registerTool(
    'drag',
    {
      description: warned(drag),
      inputSchema: { from: point, to: point, button: z.enum(['left', 'right', 'middle']).default('left') },
      ...input,
    },
    async (a, extra) => {
      try {
        const d = await desktop.drag(a.from, a.to, a.button, extra.signal);
        return text(
          `Dragged with the ${a.button} button from (${a.from.x}, ${a.from.y}) to (${a.to.x}, ${a.to.y}) (screen ${d.from.x}, ${d.from.y} → ${d.to.x}, ${d.to.y}).`,
        );
      } catch (e) {
        return failure(e, 'the drag');
      }
    },
  );

  server.registerTool(
    'scroll',
    {
      description: scroll.trim(),
      inputSchema: {
        x: z.number().int().min(0).optional(),
        y: z.number().int().min(0).optional(),
        direction: z.enum(['up', 'down', 'left', 'right']),
        amount: z.number().int().min(1).max(50).default(3),
      },
      ...input,
    },
    async (a, extra) => {
      try {
        if ((a.x === undefined) !== (a.y === undefined))
          throw new DesktopError('give both x and y, or neither (to scroll where the pointer is)');
        const where = a.x === undefined ? undefined : { x: a.x, y: a.y! };
        const to = await desktop.scroll(where, a.direction, a.amount, extra.signal);
        return text(
          `Scrolled ${a.direction} ${a.amount} notch${a.amount === 1 ? '' : 'es'} at ${where ? `(${where.x}, ${where.y})` : 'the pointer'} (screen ${to.x}, ${to.y}).`,
        );
      } catch (e) {
        return failure(e, 'the scroll');
      }
    },
  );

  server.registerTool(
    'type_text',
    { description: warned(typeText), inputSchema: { text: z.string().min(1).max(MAX_TEXT_CHARS) }, ...input },
    async (a, extra) => {
      try {
        const control = [...a.text].find((ch) => /[\u0000-\u0008\u000b-\u001f\u007f]/.test(ch));
        if (control)
          throw new DesktopError(
            `the text holds the control character U+${control.codePointAt(0)!.toString(16).padStart(4, '0')}; type plain text, and press keys with press_keys`,
          );
        await desktop.type(a.text, extra.signal);
        return text(`Typed ${[...a.text].length} characters.`);
      } catch (e) {
        return failure(e, `typing ${[...a.text].length} characters`);
      }
    },
  );

  server.registerTool(
    'press_keys',
    {
      description: warned(pressKeys),
      inputSchema: {
        keys: z.array(z.string().min(1)).min(1).max(50),
        repeat: z.number().int().min(1).max(100).default(1),
      },
      ...input,
    },
    async (a, extra) => {
      try {
        await desktop.keys(a.keys, a.repeat, extra.signal);
        return text(`Pressed ${a.keys.join(', ')}${a.repeat > 1 ? ` ${a.repeat} times` : ''}.`);
      } catch (e) {
        return failure(e, 'pressing the keys');
      }
    },
  );

  server.registerTool(
    'wait',
    {
      description: waitText.trim(),
      inputSchema: { seconds: z.number().min(0.05).max(30), window_title: z.string().min(1).optional() },
      ...observe,
    },
    async (a, extra) => {
      try {
        const found = await desktop.waitFor(a.seconds, a.window_title, extra.signal);
        if (extra.signal.aborted) return failure(new StoppedError(0), 'the wait');
        if (!a.window_title) return text(`Waited ${a.seconds} s.`);
        return found
          ? text(
              `Window ${hex(found.id)} "${found.title}" is there (at (${found.x}, ${found.y}), ${found.width}×${found.height}).`,
            )
          : {
              content: [
                {
                  type: 'text',
                  text: `No window whose title contains "${a.window_title}" appeared within ${a.seconds} s.`,
                },
              ],
              isError: true,
            };
      } catch (e) {
        return failure(e, 'the wait');
      }
    },
  );

  server.registerTool(
    'read_clipboard',
    {
      description: readClipboard.trim(),
      inputSchema: { selection: z.enum(['clipboard', 'primary']).default('clipboard') },
      ...observe,
    },
    async (a, extra) => {
      try {
        const got = await desktop.clipboard(
          a.selection === 'primary' ? 'PRIMARY' : 'CLIPBOARD',
          MAX_CLIPBOARD_BYTES,
          extra.signal,
        );
        if (got.text === undefined) return text(`Nothing to read: ${got.why}.`);
        return text(
          `${got.truncated ? `The first ${MAX_CLIPBOARD_BYTES} bytes of the ${a.selection}` : `The ${a.selection}`} (${[...got.text].length} characters):\n${got.text}`,
        );
      } catch (e) {
        return failure(e, 'reading the clipboard');
      }
    },
  );
  return server;
}

async function main(): Promise<void> {
  const desktop = new Desktop(process.env);
  await serveStdio(createServer(desktop), () => desktop.close());
}

await main();
