/** Where a periodic job reports: a count when it did something, a warning when a run failed. */
export interface JobLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Runs `run` every `intervalMs`, never two runs at once; a failed run is logged and the next one tries again. The
 * timer does not keep the process alive. Returns the stop, which waits for a run under way.
 */
export function startPeriodicJob(job: {
  /** What the job does, as the log says it ("expired pending charges"). */
  name: string;
  intervalMs: number;
  /** One pass; answers how many things it changed. */
  run: () => Promise<number>;
  logger: JobLogger;
}): () => Promise<void> {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = job
      .run()
      .then((count) => {
        if (count > 0) job.logger.info({ job: job.name, count }, job.name);
      })
      .catch((error: unknown) => job.logger.warn({ err: error, job: job.name }, `${job.name}: run failed`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, job.intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
