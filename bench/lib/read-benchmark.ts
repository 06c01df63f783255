import { startServer } from './child.js';
import type { BenchFigure } from './report.js';
import { type StoreName, storeEnvironment } from './stores.js';
import { versusBare } from './versus-bare.js';
import { STORES } from './write-benchmark.js';

/**
 * A read route on each store against the bare route of the same server script (it prints `ours`, `bare` and the
 * `authorization` header), `name` naming ours for a store. A script that also prints `information` (a URL) has
 * that route measured once beside them, named `informationName`, for information.
 */
export async function readBenchmark<
  Info extends { ours: string; bare: string; authorization: string; information?: string },
>(options: {
  script: string;
  name: (info: Info, store: StoreName) => string;
  target: number;
  durationSeconds: number;
  informationName?: string;
}): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) {
    const { info, stop } = await startServer<Info>(options.script, await storeEnvironment(store));
    try {
      figures.push(
        ...(await versusBare({
          name: options.name(info, store),
          target: options.target,
          ours: { url: info.ours, headers: { authorization: info.authorization } },
          bare: { url: info.bare },
          ...(info.information && {
            information: {
              name: options.informationName ?? 'information',
              target: { url: info.information },
            },
          }),
          durationSeconds: options.durationSeconds,
        })),
      );
    } finally {
      await stop();
    }
  }
  return figures;
}
