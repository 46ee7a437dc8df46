/** Small async helpers shared by the layers. */

/** Resolves after `ms`; `unref` lets the process exit while it waits. */
export function sleep(ms: number, opts: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (opts.unref) timer.unref();
  });
}
