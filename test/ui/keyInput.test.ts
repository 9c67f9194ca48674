// The key parser under the terminal's enhanced keyboard modes (kitty CSI-u, xterm modifyOtherKeys) and
// in legacy mode: Shift-Enter and Ctrl-J become a new line, key releases are dropped, every other key
// keeps its meaning, and the input router acts on them.
import { Editor, setKittyProtocolActive, type TUI } from '@mariozechner/pi-tui';
import { afterEach, describe, expect, it } from 'vitest';
import { InputRouter, type InputHost } from '../../src/ui/inputRouter';
import { actionOf, normalizeKey } from '../../src/ui/keymap';
import type { CommandHost } from '../../src/ui/slashCommands';

afterEach(() => setKittyProtocolActive(false));

const KITTY = {
  shiftEnter: '\x1b[13;2u',
  ctrlJ: '\x1b[106;5u',
  ctrlC: '\x1b[99;5u',
  ctrlCRelease: '\x1b[99;5:3u',
  ctrlCRepeat: '\x1b[99;5:2u',
  ctrlS: '\x1b[115;5u',
  ctrlV: '\x1b[118;5u',
  ctrlO: '\x1b[111;5u',
  escape: '\x1b[27u',
  shiftTab: '\x1b[9;2u',
  aRelease: '\x1b[97;1:3u',
};
const MODIFY_OTHER_KEYS = { shiftEnter: '\x1b[27;2;13~', ctrlJ: '\x1b[27;5;106~', ctrlC: '\x1b[27;5;99~' };

describe('key parser', () => {
  it('Shift-Enter and Ctrl-J in every encoding become a new line', () => {
    for (const kitty of [false, true]) {
      setKittyProtocolActive(kitty);
      for (const data of [KITTY.shiftEnter, KITTY.ctrlJ, MODIFY_OTHER_KEYS.shiftEnter, MODIFY_OTHER_KEYS.ctrlJ]) {
        expect(actionOf(data), JSON.stringify(data)).toBe('newline');
        expect(normalizeKey(data)).toBe('\n');
      }
    }
    // Legacy terminals send Ctrl-J as a bare line feed.
    expect(normalizeKey('\n')).toBe('\n');
    expect(normalizeKey('\r')).toBe('\r');
    expect(actionOf('\r')).toBeUndefined();
  });

  it('other keys keep their meaning under the kitty protocol and modifyOtherKeys', () => {
    setKittyProtocolActive(true);
    expect(actionOf(KITTY.ctrlC)).toBe('ctrlC');
    expect(actionOf(MODIFY_OTHER_KEYS.ctrlC)).toBe('ctrlC');
    expect(actionOf(KITTY.ctrlS)).toBe('steer');
    expect(actionOf(KITTY.ctrlO)).toBe('toggleExpand');
    expect(actionOf(KITTY.ctrlV)).toBe('pasteImage');
    expect(actionOf(KITTY.escape)).toBe('escape');
    expect(actionOf(KITTY.shiftTab)).toBe('cycleMode');
    expect(normalizeKey('a')).toBe('a');
    expect(normalizeKey(KITTY.ctrlCRepeat)).toBe(KITTY.ctrlCRepeat);
  });

  it('drops key releases, but never a paste that looks like one', () => {
    setKittyProtocolActive(true);
    expect(normalizeKey(KITTY.ctrlCRelease)).toBeUndefined();
    expect(normalizeKey(KITTY.aRelease)).toBeUndefined();
    const paste = '\x1b[200~90:62:3u\x1b[201~';
    expect(normalizeKey(paste)).toBe(paste);
  });
});

function routerFor(): { router: InputRouter; editor: Editor; exits: number[]; pastes: number } {
  const tui = { terminal: { rows: 24, columns: 80 }, requestRender: () => undefined } as unknown as TUI;
  const editor = new Editor(tui, {
    borderColor: (s: string) => s,
    selectList: {
      selectedPrefix: (s) => s,
      selectedText: (s) => s,
      description: (s) => s,
      scrollInfo: (s) => s,
      noMatch: (s) => s,
    },
  });
  const state = { router: undefined as unknown as InputRouter, editor, exits: [] as number[], pastes: 0 };
  const host: InputHost = {
    editor,
    home: '/nonexistent',
    cwd: '/nonexistent',
    panel: undefined,
    work: { busy: false, compacting: false, shellRunning: false },
    mode: 'manual',
    planMode: false,
    commands: {} as CommandHost,
    skills: undefined,
    requestRender: () => undefined,
    exit: (code) => void state.exits.push(code),
    interrupt: () => undefined,
    undo: () => undefined,
    toggleExpand: () => undefined,
    toggleTodos: () => undefined,
    openExternalEditor: () => undefined,
    steer: () => undefined,
    sendPrompt: () => undefined,
    runShell: () => undefined,
    runFlow: () => undefined,
    refreshCompletion: () => undefined,
    pasteImage: () => void state.pastes++,
    pastedImage: (text) => (text === '/tmp/shot.png' ? '[Image #1: shot.png]' : undefined),
  };
  state.router = new InputRouter(host);
  return state;
}

describe('input router under the kitty protocol', () => {
  it('types a new line with Shift-Enter and Ctrl-J, and Enter still submits', () => {
    setKittyProtocolActive(true);
    const { router, editor } = routerFor();
    let submitted: string | undefined;
    editor.onSubmit = (text) => (submitted = text);
    for (const key of ['o', 'n', 'e', KITTY.shiftEnter, 't', 'w', 'o', KITTY.ctrlJ, 'x', KITTY.aRelease])
      router.onInput(key);
    expect(editor.getText()).toBe('one\ntwo\nx');
    router.onInput('\r');
    expect(submitted).toBe('one\ntwo\nx');
  });

  it('a Ctrl-C release is no second Ctrl-C: one press only arms the exit', () => {
    setKittyProtocolActive(true);
    const { router, exits } = routerFor();
    router.onInput(KITTY.ctrlC);
    router.onInput(KITTY.ctrlCRelease);
    expect(exits).toEqual([]);
    expect(router.hint).toMatch(/Ctrl-C again/);
    router.onInput(KITTY.ctrlC);
    expect(exits).toEqual([0]);
  });

  it('Ctrl-V asks for the clipboard; a pasted image path becomes its placeholder, other pastes are text', () => {
    const r = routerFor();
    r.router.onInput(KITTY.ctrlV);
    r.router.onInput('\x16');
    expect(r.pastes).toBe(2);
    r.router.onInput('\x1b[200~/tmp/shot.png\x1b[201~');
    r.router.onInput(' ');
    r.router.onInput('\x1b[200~plain text\x1b[201~');
    expect(r.editor.getText()).toBe('[Image #1: shot.png] plain text');
  });
});
