// /undo and /rewind choices (docs/ui.md): a long prompt is cut at a word with an ellipsis, never mid-word.
import { describe, expect, it } from 'vitest';
import { choiceLabel } from '../../src/ui/contextActions';

describe('undo and rewind choice labels', () => {
  it('keeps a short prompt whole and cuts a long one at a word', () => {
    expect(choiceLabel('fix the test')).toBe('fix the test');
    expect(choiceLabel('')).toBe('(empty)');
    const long = 'please go back to the state of the repository before a compaction happened yesterday evening';
    const label = choiceLabel(long);
    expect(label.endsWith('…')).toBe(true);
    expect(label.length).toBeLessThanOrEqual(71);
    expect(long.startsWith(label.slice(0, -1))).toBe(true);
    // The character after the cut is a space: the last word is whole.
    expect(long[label.length - 1]).toBe(' ');
    expect(choiceLabel('first line\nsecond line')).toBe('first line');
  });
});
