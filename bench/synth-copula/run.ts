/**
 * The Gaussian copula on the shared datasets: fit time, sample time, our quality report and privacy check, and
 * CSV files for the SDV peer (peer.py), which fits SDV's GaussianCopulaSynthesizer on the same rows and scores both
 * synthetic tables with the SDMetrics package.
 *
 *   npx tsc -p tsconfig.json --outDir .build-perf --tsBuildInfoFile .build-perf/.tsbuildinfo
 *   node .build-perf/bench/synth-copula/run.js [titanic.csv german.csv diamonds.csv:10000 ...]
 *   ~/.cache/mlsvc/venv-synth/bin/python bench/synth-copula/peer.py      # needs pip install sdv sdmetrics
 *
 * `name:N` keeps N evenly spaced rows. Writes bench/results/synth-copula/<name>.{real,synthetic}.csv, <name>.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Frame, readCsvFrame, selectRows } from '../../engine/automl';
import { evaluateQuality, fitGaussianCopula, privacyCheck, sampleGaussianCopula } from '../../engine/synth';

const OUT = path.join(__dirname, '..', '..', '..', 'bench', 'results', 'synth-copula');

function datasetsDir(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return process.env.DATASETS_DIR ?? path.join(dir, '..', 'shared', 'datasets');
}

function toCsv(frame: Frame): string {
  const rows: string[][] = [];
  for (let i = 0; i < frame.nrows; i++) {
    rows.push(
      frame.columns.map((c) => {
        if (c.kind === 'categorical') return c.codes[i] < 0 ? '' : c.levels[c.codes[i]];
        const v = c.kind === 'numeric' ? c.values[i] : c.epochMs[i];
        if (Number.isNaN(v)) return '';
        return c.kind === 'datetime' ? new Date(v).toISOString() : String(v);
      }),
    );
  }
  return stringify([frame.names, ...rows]);
}

async function main(): Promise<void> {
  const specs = process.argv.slice(2).length ? process.argv.slice(2) : ['titanic.csv', 'german.csv', 'diamonds.csv:10000'];
  fs.mkdirSync(OUT, { recursive: true });
  for (const spec of specs) {
    const [file, limit] = spec.split(':');
    let real = await readCsvFrame(path.join(datasetsDir(), file));
    if (limit && real.nrows > Number(limit)) {
      const n = Number(limit);
      real = selectRows(
        real,
        Array.from({ length: n }, (_, i) => Math.floor((i * real.nrows) / n)),
      );
    }
    const name = file.replace(/\.csv$/, '') + (limit ? `-${limit}` : '');
    let t = process.hrtime.bigint();
    const model = fitGaussianCopula(real, { seed: 1 });
    const fitSecs = Number(process.hrtime.bigint() - t) / 1e9;
    t = process.hrtime.bigint();
    const synthetic = sampleGaussianCopula(model, real.nrows, { seed: 2 });
    const sampleSecs = Number(process.hrtime.bigint() - t) / 1e9;
    const quality = evaluateQuality(real, synthetic);
    const privacy = privacyCheck(real, real, synthetic);
    fs.writeFileSync(path.join(OUT, `${name}.real.csv`), toCsv(real));
    fs.writeFileSync(path.join(OUT, `${name}.synthetic.csv`), toCsv(synthetic));
    const result = {
      dataset: name,
      rows: real.nrows,
      columns: real.names.length,
      kinds: Object.fromEntries(real.names.map((n, j) => [n, real.columns[j].kind])),
      fit_secs: fitSecs,
      sample_secs: sampleSecs,
      quality: { overall: quality.overall_score, column_shapes: quality.column_shapes.score, column_pair_trends: quality.column_pair_trends.score },
      privacy,
      marginals: Object.fromEntries(
        (model.params as { encodings: Array<{ kind: string; marginal?: { family: string } | null }> }).encodings.map((e, j) => [
          real.names[j],
          e.kind === 'numeric' ? (e.marginal?.family ?? null) : 'categorical',
        ]),
      ),
    };
    fs.writeFileSync(path.join(OUT, `${name}.json`), JSON.stringify(result, null, 1));
    console.log(
      `${name}: ${real.nrows} rows, fit ${fitSecs.toFixed(2)} s, sample ${sampleSecs.toFixed(2)} s, quality ${quality.overall_score.toFixed(4)} (shapes ${quality.column_shapes.score?.toFixed(4)}, pairs ${quality.column_pair_trends.score?.toFixed(4)})`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
