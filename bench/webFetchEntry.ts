// Bundled by bench/webFetch.bench.mjs: FetchURL through the engine's tool runner, and the baseline
// (global fetch + linkedom + Readability, nothing else), each run in its own process.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { fetchUrlTool } from '../src/tools/web/fetchUrlTool';
import { WEB_SERVICE } from '../src/tools/web/webService';
import { makeToolHarness } from '../test/helpers/toolHarness';

export async function runVariant(
  variant: 'tool' | 'baseline',
  url: string,
  runs: number,
): Promise<{ medianMs: number; chars: number }> {
  const h = makeToolHarness();
  h.register(WEB_SERVICE, { allowPrivateNetwork: true });
  const once = async (): Promise<number> => {
    if (variant === 'tool') return (await h.run(fetchUrlTool, { url })).text.length;
    const html = await (await fetch(url)).text();
    const article = new Readability(
      parseHTML(html).document as unknown as ConstructorParameters<typeof Readability>[0],
    ).parse();
    return article?.textContent?.length ?? 0;
  };
  let chars = await once();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    chars = await once();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)], chars };
}
