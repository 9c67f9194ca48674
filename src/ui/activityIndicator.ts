// The activity line's state (liveRegion.ts draws it): what is running, since when, and the spinner's
// frame. Its timer runs only while something runs, so an idle UI asks for no frames.
const SPINNER_MS = 120;

export interface Activity {
  since: number;
  frame: number;
  label: string;
}

export class ActivityIndicator {
  private state: Activity | undefined;
  private spinner: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly requestRender: () => void) {}

  /** Undefined while idle. */
  get current(): Activity | undefined {
    return this.state;
  }

  /** Starts the activity, or relabels the running one (its clock keeps going). */
  start(label: string): void {
    if (!this.state) this.state = { since: Date.now(), frame: 0, label };
    else this.state.label = label;
    this.spinner ??= setInterval(() => {
      if (this.state) this.state.frame++;
      this.requestRender();
    }, SPINNER_MS);
  }

  /** Relabels the running activity; does nothing while idle. */
  relabel(label: string): void {
    if (this.state) this.state.label = label;
  }

  stop(): void {
    if (this.spinner) clearInterval(this.spinner);
    this.spinner = undefined;
    this.state = undefined;
  }
}
