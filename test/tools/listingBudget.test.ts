// The room of the listings every request carries (src/tools/listingBudget.ts): it grows with the context window
// from a floor, and a listing past it shortens descriptions, then names entries without one — never leaves one out.
import { describe, expect, it } from 'vitest';
import {
  cutText,
  ENTRY_MAX_CHARS,
  fitListing,
  LISTING_MIN_BYTES,
  listingBudgetBytes,
  SHORTENED_MIN_CHARS,
  type ListingFormat,
} from '../../src/tools/listingBudget';

const LINES: ListingFormat = {
  described: (name, text) => `- ${name}: ${text}`,
  namesOnly: (names) => `- also: ${names.join(', ')}`,
  separator: '\n',
};
const bytes = (parts: string[]) => Buffer.byteLength(parts.join('\n'));
const entries = (n: number, text: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => ({ name: `skill-${i}`, text: text(i) }));

describe('listing budget', () => {
  it('is 1 % of the context window at 4 bytes a token, never below the floor', () => {
    expect(listingBudgetBytes(262_144)).toBe(10_485);
    expect(listingBudgetBytes(1_000_000)).toBe(40_000);
    expect(listingBudgetBytes(200_000)).toBe(LISTING_MIN_BYTES);
    expect(listingBudgetBytes(32_000)).toBe(LISTING_MIN_BYTES);
  });

  it('keeps every description whole when they fit, cut only at the per-entry cap', () => {
    const list = entries(5, (i) => `Does thing ${i}. With details.`);
    const fitted = fitListing(list, 1000, LINES);
    expect(fitted.fit).toBe('full');
    expect(fitted.parts).toEqual(list.map((e) => `- ${e.name}: ${e.text}`));
    const huge = fitListing([{ name: 'x', text: 'word '.repeat(1000) }], 100_000, LINES);
    expect(huge.parts[0].length).toBeLessThanOrEqual(ENTRY_MAX_CHARS + 4);
    expect(huge.parts[0].endsWith('…')).toBe(true);
  });

  it('past the room shortens every description alike to the longest cut that fits', () => {
    const list = entries(20, (i) => `${'A long account of what this skill does and when. '.repeat(6)} #${i}`);
    const room = 3000;
    const fitted = fitListing(list, room, LINES);
    expect(fitted.fit).toBe('shortened');
    expect(bytes(fitted.parts)).toBeLessThanOrEqual(room);
    expect(fitted.cutAt).toBeGreaterThanOrEqual(SHORTENED_MIN_CHARS);
    // One character more would not fit: the room is used, not wasted.
    const longer = list.map((e) => `- ${e.name}: ${cutText(e.text, fitted.cutAt! + 1)}`);
    expect(bytes(longer)).toBeGreaterThan(room);
    for (const [i, part] of fitted.parts.entries()) expect(part.startsWith(`- skill-${i}: A long account`)).toBe(true);
  });

  it('past even that, the last entries are named without descriptions; every name is there', () => {
    const list = entries(200, () => 'Explains something at some length so that it needs room in the listing.');
    const fitted = fitListing(list, 4000, LINES);
    expect(fitted.fit).toBe('names');
    expect(bytes(fitted.parts)).toBeLessThanOrEqual(4000);
    expect(fitted.parts.at(-1)).toMatch(/^- also: skill-\d+, /);
    const text = fitted.parts.join('\n');
    for (const e of list) expect(text).toMatch(new RegExp(`\\b${e.name}\\b`));
    expect(fitted.namesOnly.length + fitted.parts.length - 1).toBe(200);
    // Names alone past the room: still every name, nothing described.
    const tight = fitListing(list, 100, LINES);
    expect(tight.parts).toEqual([`- also: ${list.map((e) => e.name).join(', ')}`]);
  });

  it('cuts text at a word and flattens line breaks', () => {
    expect(cutText('one two\nthree', 100)).toBe('one two three');
    expect(cutText('alpha beta gamma delta', 15)).toBe('alpha beta…');
  });
});
