// A Bash result as a person reads it (docs/web.md "Tool cards"). The model gets `Exit code: N` then the output wrapped
// in <stdout>/<stderr>, `(no output)`, or for a long one a preview in <output …> (src/tools/shell/bashTool.ts); the
// card shows the output, the error output apart, the exit code when it is not 0, and what the tool said before it
// (a sandbox refusal, a time-out). Text of another shape (a command that could not start) is shown as it is.
export interface BashOutput {
  stdout: string;
  stderr: string;
  /** The exit code line's value when it is not 0 (`none (terminated by SIGTERM)` included). */
  exit?: string;
  note: string;
}

export function parseBashOutput(text: string): BashOutput | undefined {
  const line = /^Exit code: (.*)$/m.exec(text);
  if (!line) return undefined;
  const note = text.slice(0, line.index).trim();
  const rest = text.slice(line.index + line[0].length).replace(/^\n/, '');
  const exit = line[1].trim();
  const withExit = (stdout: string, stderr: string): BashOutput => ({
    stdout,
    stderr,
    ...(exit !== '0' ? { exit } : {}),
    note,
  });
  if (rest.trim() === '(no output)') return withExit('', '');
  const preview = /^<output [^>\n]*>\n([\s\S]*)\n<\/output>$/.exec(rest);
  if (preview) return withExit(preview[1], '');
  const block = (name: string): string | undefined =>
    new RegExp(`<${name}>\\n?([\\s\\S]*?)\\n?</${name}>`).exec(rest)?.[1];
  const stdout = block('stdout');
  const stderr = block('stderr');
  if (stdout === undefined && stderr === undefined) return undefined;
  return withExit(stdout ?? '', stderr ?? '');
}
