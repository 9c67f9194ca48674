// What a runtime must close when the session ends: background tasks, MCP clients, a browser, plugin
// processes. Each is registered when it is created and closed in the reverse order, so something is
// never closed before what was started on top of it. One failure does not keep the rest open.

export interface Disposable {
  /** For the error message when closing it fails ("MCP server docs", "browser"). */
  name: string;
  /** `force`: the user is quitting hard (second Ctrl-C); do not wait for graceful ends. */
  dispose(opts: { force: boolean }): Promise<void> | void;
}

export class Disposables {
  private readonly items: Disposable[] = [];
  private closed = false;

  /** Registers something to close with the runtime; returns a function that unregisters it. */
  add(item: Disposable): () => void {
    if (this.closed) throw new Error(`cannot register ${item.name}: the session is already closed`);
    this.items.push(item);
    return () => {
      const i = this.items.indexOf(item);
      if (i >= 0) this.items.splice(i, 1);
    };
  }

  get size(): number {
    return this.items.length;
  }

  /** Closes everything, newest first; returns one message per failure. */
  async disposeAll(opts: { force: boolean }): Promise<string[]> {
    this.closed = true;
    const failures: string[] = [];
    while (this.items.length) {
      const item = this.items.pop()!;
      try {
        await item.dispose(opts);
      } catch (e) {
        failures.push(`closing ${item.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return failures;
  }
}
