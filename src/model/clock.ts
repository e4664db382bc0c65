/**
 * Milliseconds since the process started, for the timings a run reports (`DOCGATE_TIMING`). Not
 * `performance.now()`: the first use of the `performance` global loads Node's `perf_hooks` (thirteen
 * modules), a few milliseconds of a one-file lint (docs/performance.md, "Issue 26's rows again").
 */
export function msSinceStart(): number {
  return process.uptime() * 1000;
}
