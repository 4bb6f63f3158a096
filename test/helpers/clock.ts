/**
 * A machine's time and timers that move only when the test moves them: code that takes its clock
 * and its timers as arguments (the demo's Timers, a lock's wait, a store's probe interval) runs its
 * hours or its seconds at once, and the test reads what it waited for instead of timing it.
 */
import type { Timers } from "../../src/jobs/demo/loop.js";

export class ManualTimers implements Timers {
  private t: number;
  private timers: Array<{ due: number; fn: () => void }> = [];
  private armed: Array<(due: number) => void> = [];
  /** Every wait asked of sleep(), in order. */
  readonly slept: number[] = [];

  constructor(startMs: number) {
    this.t = startMs;
  }

  now = (): number => this.t;

  setTimer = (fn: () => void, ms: number): (() => void) => {
    const timer = { due: this.t + Math.max(0, ms), fn };
    this.timers.push(timer);
    for (const wake of this.armed.splice(0)) wake(timer.due);
    return () => void (this.timers = this.timers.filter((x) => x !== timer));
  };

  /** A sleep that passes at once and moves the time on by `ms`: a wait the code asks for, taken. */
  sleep = async (ms: number): Promise<void> => {
    this.slept.push(ms);
    this.advanceTo(this.t + ms);
  };

  /** Moves the time to `ms` (never back) and fires, in order, every timer due by then. */
  advanceTo(ms: number): void {
    this.t = Math.max(this.t, ms);
    for (;;) {
      const due = this.timers.filter((x) => x.due <= this.t).sort((a, b) => a.due - b.due)[0];
      if (!due) return;
      this.timers = this.timers.filter((x) => x !== due);
      due.fn();
    }
  }

  advance(ms: number): void {
    this.advanceTo(this.t + ms);
  }

  /** When the timers still pending are due. */
  pending(): number[] {
    return this.timers.map((x) => x.due).sort((a, b) => a - b);
  }

  /** Resolves with the due time of the next timer set from now on. */
  nextTimer(): Promise<number> {
    return new Promise((resolve) => this.armed.push(resolve));
  }
}
