// Where a file stops being valid UTF-8. Decoding invalid bytes yields U+FFFD, and writing that text
// back would replace the original bytes everywhere in the file; so Read reports the first invalid
// byte's line, Edit switches to editing raw bytes and Write refuses to overwrite such a file.

export interface InvalidUtf8 {
  /** Byte offset of the first byte that is not part of a valid UTF-8 sequence. */
  offset: number;
  /** 1-based line of that byte. */
  line: number;
}

/** Length of the sequence a lead byte starts, or 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The allowed range of the byte after `lead` (RFC 3629: no overlongs, surrogates or > U+10FFFF). */
function secondByteOk(lead: number, b: number): boolean {
  if (lead === 0xe0) return b >= 0xa0 && b <= 0xbf;
  if (lead === 0xed) return b >= 0x80 && b <= 0x9f;
  if (lead === 0xf0) return b >= 0x90 && b <= 0xbf;
  if (lead === 0xf4) return b >= 0x80 && b <= 0x8f;
  return b >= 0x80 && b <= 0xbf;
}

/**
 * Scans bytes fed in chunks of any size (a sequence may straddle two chunks) and remembers the first
 * invalid byte. `end()` reports a sequence cut off by the end of the file.
 */
export class Utf8Scanner {
  private carry: Uint8Array = new Uint8Array(0);
  private consumed = 0;
  private lines = 1;
  invalid: InvalidUtf8 | undefined;

  feed(chunk: Uint8Array): void {
    if (this.invalid) return;
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = new Uint8Array(0);
    let i = 0;
    while (i < bytes.length) {
      const lead = bytes[i];
      if (lead < 0x80) {
        if (lead === 0x0a) this.lines++;
        i++;
        continue;
      }
      const length = sequenceLength(lead);
      if (length === 0) return this.fail(i);
      if (i + 1 < bytes.length && !secondByteOk(lead, bytes[i + 1])) return this.fail(i);
      for (let k = 2; k < length && i + k < bytes.length; k++) {
        if ((bytes[i + k] & 0xc0) !== 0x80) return this.fail(i);
      }
      if (i + length > bytes.length) {
        this.carry = bytes.slice(i);
        this.consumed += i;
        return;
      }
      i += length;
    }
    this.consumed += bytes.length;
  }

  end(): InvalidUtf8 | undefined {
    if (!this.invalid && this.carry.length) this.fail(0);
    return this.invalid;
  }

  private fail(index: number): void {
    this.invalid = { offset: this.consumed + index, line: this.lines };
  }
}

/** The first invalid byte of a whole buffer, or undefined when it is valid UTF-8. */
export function findInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | undefined {
  const scanner = new Utf8Scanner();
  scanner.feed(bytes);
  return scanner.end();
}
