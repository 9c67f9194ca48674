// Key combinations: how they are read, and the ones computer use refuses to press, written every way a model (or
// text on the screen trying to steer it) might write them (docs/computer-use.md, "Refused key combinations").
import { describe, expect, it } from 'vitest';
import { describeCombo, KeyComboError, parseKeyCombo, refusedCombo } from '../../../src/platform/x11/keyCombos';
import { KEYSYM } from '../../../src/platform/x11/keysyms';

const refused = (text: string) => refusedCombo(parseKeyCombo(text));

describe('reading key combinations', () => {
  it.each([
    ['ctrl+s', ['ctrl'], 0x73],
    ['Control+Shift+T', ['ctrl', 'shift'], 0x74],
    ['shift+ctrl+t', ['ctrl', 'shift'], 0x74],
    ['alt+F4', ['alt'], KEYSYM.F1 + 3],
    ['Return', [], KEYSYM.Return],
    ['enter', [], KEYSYM.Return],
    ['ctrl++', ['ctrl'], 0x2b],
    ['+', [], 0x2b],
    ['super', [], KEYSYM.Super_L],
    ['win+e', ['super'], 0x65],
    ['ctrl+é', ['ctrl'], 0xe9],
    ['ctrl+É', ['ctrl'], 0xe9],
    ['U+2192', [], 0x01002192],
    ['pgdn', [], KEYSYM.Next],
    ['KP_Enter', [], KEYSYM.KP_Enter],
    [' ctrl + a ', ['ctrl'], 0x61],
  ])('%s', (text, modifiers, keysym) => {
    expect(parseKeyCombo(text)).toMatchObject({ modifiers, keysym });
  });

  it.each([
    ['', 'an empty key combination'],
    ['ctrl+', 'empty part'],
    ['ctrl++a', 'empty part'],
    ['foo+s', '"foo" in "foo+s" is not a modifier'],
    ['ctrl+nokey', '"nokey" in "ctrl+nokey" is not a key name'],
    ['alt+sysrq+b', '"sysrq" in "alt+sysrq+b" is not a modifier'],
  ])('refuses to read %j', (text, message) => {
    expect(() => parseKeyCombo(text)).toThrow(KeyComboError);
    expect(() => parseKeyCombo(text)).toThrow(message);
  });

  it('writes a combination in the order its modifiers are pressed', () => {
    expect(describeCombo(parseKeyCombo('shift+super+alt+ctrl+f1'))).toBe('ctrl+alt+shift+super+F1');
  });
});

describe('refused combinations', () => {
  it.each([
    // log-out / restart
    'ctrl+alt+Delete',
    'CTRL+ALT+DEL',
    'alt+control+delete',
    'Ctrl+Alt+KP_Delete',
    'ctrl+alt+shift+Delete',
    // kill the X server
    'ctrl+alt+BackSpace',
    'Control+Alt+backspace',
    'ctrl+alt+bksp',
    'Terminate_Server',
    // leave the session for a virtual terminal
    ...Array.from({ length: 12 }, (_, i) => `ctrl+alt+F${i + 1}`),
    'CTRL+ALT+f7',
    'XF86Switch_VT_3',
    'shift+xf86switch_vt_12',
    // lock the screen
    'super+l',
    'Super+L',
    'win+l',
    'meta+L',
    'cmd+l',
    'super+U+004C',
    'super+shift+l',
    'ctrl+alt+l',
    'ctrl+alt+L',
    'ctrl+alt+shift+l',
    // KDE: shut down / restart without asking
    'ctrl+alt+shift+Page_Down',
    'ctrl+alt+shift+pgup',
    // the kernel's SysRq keys
    'alt+SysRq',
    'alt+Print',
    'alt+shift+prtsc',
    // power and session keys
    'XF86PowerOff',
    'XF86LogOff',
    'xf86screensaver',
    'XF86Sleep',
    'XF86Suspend',
    'XF86Hibernate',
    'XF86Standby',
    'XF86PowerDown',
    'ctrl+XF86LogOff',
    // the server's grab-breaking debug keys
    'XF86Ungrab',
    'XF86ClearGrab',
  ])('%s', (text) => {
    expect(refused(text)).toMatch(/^it /);
  });

  it.each([
    'ctrl+s',
    'alt+F4',
    'ctrl+alt+t',
    'ctrl+l',
    'super',
    'super+e',
    'F1',
    'ctrl+F1',
    'alt+F2',
    'Delete',
    'ctrl+Delete',
    'Print',
    'shift+l',
    'l',
  ])('%s may be pressed', (text) => {
    expect(refused(text)).toBeUndefined();
  });
});
