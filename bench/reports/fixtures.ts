/**
 * Synthetic but realistic report documents for the benchmark and the engine's tests: the figures are made up (a seeded
 * generator, so every run draws the same document), the shapes are those the report kinds compose.
 */
import type { Block, Cell, ChartSpec, ReportDocument, Section } from '../../engine/reports';
import { seeded } from '../support/seeded';

const ALGORITHMS = ['GBM', 'XGBoost', 'DRF', 'GLM', 'DeepLearning', 'StackedEnsemble'];
const FEATURES = ['sex', 'pclass', 'fare', 'age', 'title', 'cabin_deck', 'embarked', 'sibsp', 'parch', 'family_size', 'ticket_prefix', 'is_alone', 'fare_per_person', 'age_band', 'name_length'];

interface SyntheticModel {
  id: string;
  algorithm: string;
  auc: number;
  logloss: number;
  accuracy: number;
  f1: number;
  trainingSeconds: number;
  importance: number[];
}

function models(count: number, rand: () => number): SyntheticModel[] {
  const out: SyntheticModel[] = [];
  for (let i = 0; i < count; i++) {
    const algorithm = ALGORITHMS[i % ALGORITHMS.length];
    const auc = 0.78 + 0.1 * rand() + (algorithm === 'StackedEnsemble' ? 0.03 : 0);
    const raw = FEATURES.map((_, j) => Math.max(0, (1 / (j + 1.5)) * (0.6 + 0.8 * rand())));
    const top = Math.max(...raw);
    out.push({
      id: `${algorithm}_${i + 1}_AutoML_20261124_101500`,
      algorithm,
      auc,
      logloss: 0.62 - 0.45 * (auc - 0.75) + 0.02 * rand(),
      accuracy: auc - 0.06 + 0.02 * rand(),
      f1: auc - 0.1 + 0.03 * rand(),
      trainingSeconds: 0.8 + 40 * rand() ** 2 + (algorithm === 'DeepLearning' ? 25 : 0),
      importance: raw.map((v) => v / top),
    });
  }
  return out.sort((a, b) => b.auc - a.auc);
}

/** Models no other model beats on both AUC (higher) and training time (lower), by training time. */
function paretoFront(ms: SyntheticModel[]): SyntheticModel[] {
  const byTime = [...ms].sort((a, b) => a.trainingSeconds - b.trainingSeconds);
  const front: SyntheticModel[] = [];
  let best = -Infinity;
  for (const m of byTime) {
    if (m.auc <= best) continue;
    best = m.auc;
    front.push(m);
  }
  return front;
}

/** A smooth ROC curve of a given AUC: y = x^k with k = (1 - auc) / auc. */
function rocCurve(auc: number, points = 101): { x: number; y: number }[] {
  const k = (1 - auc) / auc;
  return Array.from({ length: points }, (_, i) => ({ x: i / (points - 1), y: (i / (points - 1)) ** k }));
}

function prCurve(auc: number, prevalence: number, points = 101): { x: number; y: number }[] {
  return Array.from({ length: points }, (_, i) => {
    const recall = i / (points - 1);
    return { x: recall, y: Math.max(prevalence, 1 - (1 - auc) * 1.6 * recall ** 3 - (1 - prevalence) * 0.35 * recall ** 6) };
  });
}

function hyperparameterTable(algorithm: string, ms: SyntheticModel[], rand: () => number): Block {
  const params: Record<string, () => Cell> = {
    ntrees: () => 50 + Math.floor(rand() * 450),
    max_depth: () => 3 + Math.floor(rand() * 12),
    learn_rate: () => Math.round((0.01 + rand() * 0.2) * 1e4) / 1e4,
    sample_rate: () => Math.round((0.6 + rand() * 0.4) * 1e4) / 1e4,
    col_sample_rate: () => Math.round((0.4 + rand() * 0.6) * 1e4) / 1e4,
    min_rows: () => 1 + Math.floor(rand() * 30),
  };
  const names = algorithm === 'GLM' ? ['alpha', 'lambda', 'family', 'solver'] : algorithm === 'DeepLearning' ? ['hidden', 'epochs', 'activation', 'l1', 'l2', 'rate'] : Object.keys(params);
  const value = (name: string): Cell => {
    if (params[name]) return params[name]();
    if (name === 'family') return 'binomial';
    if (name === 'solver') return 'IRLSM';
    if (name === 'hidden') return `[${32 << Math.floor(rand() * 3)}, ${32 << Math.floor(rand() * 3)}]`;
    if (name === 'activation') return rand() > 0.5 ? 'RectifierWithDropout' : 'Tanh';
    if (name === 'epochs') return 10 + Math.floor(rand() * 90);
    return Math.round(rand() * 1e-2 * 1e6) / 1e6;
  };
  const rows = ms.filter((m) => m.algorithm === algorithm).map((m) => [m.id, ...names.map(value)]);
  return { type: 'table', columns: ['Model', ...names], rows, caption: `${algorithm} hyperparameters (actual values)` };
}

/**
 * A 20-model (by default) binary-classification experiment report: summary, data summary, leaderboard, Pareto front,
 * variable-importance heatmap and bars, the best model's metrics at its threshold, confusion matrix, ROC and PR
 * curves, learning curves, hyperparameter tables per algorithm and a summary of the engine log.
 */
export function experimentDocument(modelCount = 20): ReportDocument {
  const rand = seeded(20261124 + modelCount);
  const ms = models(modelCount, rand);
  const best = ms[0];
  const front = paretoFront(ms);
  const threshold = 0.4137;
  const [tp, fn, fp, tn] = [98, 39, 21, 200];
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  const chart = (title: string, spec: ChartSpec, caption?: string): Block => ({ type: 'chart', title, chart: spec, caption });
  const learningModels = ms.filter((m) => m.algorithm !== 'GLM' && m.algorithm !== 'StackedEnsemble').slice(0, 5);

  const sections: Section[] = [
    {
      id: 'summary',
      title: 'Summary',
      blocks: [
        {
          type: 'keyValues',
          items: [
            ['Task', 'binary classification'],
            ['Target', 'survived'],
            ['Models trained', modelCount],
            ['Best model', best.id],
            ['Best AUC', best.auc],
            ['Total training time (s)', ms.reduce((a, m) => a + m.trainingSeconds, 0)],
          ],
        },
        {
          type: 'paragraph',
          text: `Comments: first run on the cleaned passenger list; the fare outliers were capped at the 99th percentile. The best model reaches an AUC of ${best.auc.toFixed(4)} on the validation frame.`,
        },
        { type: 'note', text: 'LLM insights: no provider configured (set LLM_API_URL, LLM_API_KEY and LLM_MODEL).' },
      ],
    },
    {
      id: 'data',
      title: 'Data summary',
      blocks: [
        {
          type: 'keyValues',
          items: [
            ['Dataset', 'titanic.csv (version 3)'],
            ['Rows', 891],
            ['Columns', FEATURES.length + 1],
            ['Training / validation split', '80 / 20, stratified'],
            ['Missing cells', 0.0812],
          ],
        },
        {
          type: 'table',
          columns: ['Column', 'Type', 'Missing', 'Unique', 'Mean', 'Std'],
          rows: FEATURES.map((f, i) => [f, i % 3 === 0 ? 'categorical' : 'numeric', rand() * 0.2, 2 + Math.floor(rand() * 300), i % 3 === 0 ? null : rand() * 50, i % 3 === 0 ? null : rand() * 20]),
          caption: 'Columns used for training',
        },
      ],
    },
    {
      id: 'leaderboard',
      title: 'Leaderboard',
      blocks: [
        {
          type: 'table',
          columns: ['Rank', 'Model', 'Algorithm', 'AUC', 'Log loss', 'Accuracy', 'F1', 'Training time (s)'],
          rows: ms.map((m, i) => [i + 1, m.id, m.algorithm, m.auc, m.logloss, m.accuracy, m.f1, m.trainingSeconds]),
          caption: 'Models ranked by validation AUC',
          highlightRow: 0,
        },
      ],
    },
    {
      id: 'pareto',
      title: 'Pareto front: AUC against training time',
      blocks: [
        chart(
          'AUC against training time',
          {
            type: 'scatter',
            data: {
              datasets: [
                { label: 'Models', data: ms.map((m) => ({ x: m.trainingSeconds, y: m.auc })) },
                { label: 'Pareto front', data: front.map((m) => ({ x: m.trainingSeconds, y: m.auc })), showLine: true },
              ],
            },
            xLabel: 'Training time (s)',
            yLabel: 'AUC',
          },
          `${front.length} models are on the front: none of the others is both faster and better.`,
        ),
      ],
    },
    {
      id: 'importance',
      title: 'Variable importance',
      blocks: [
        {
          type: 'heatmap',
          title: 'Scaled variable importance across models',
          rowLabels: ms.map((m) => m.id),
          columnLabels: FEATURES,
          values: ms.map((m) => m.importance),
          caption: '1 is the most important variable of each model.',
        },
        chart('Variable importance of the best model', {
          type: 'bar',
          indexAxis: 'y',
          data: { labels: FEATURES, datasets: [{ label: 'Scaled importance', data: best.importance }] },
          xLabel: 'Scaled importance',
        }),
      ],
    },
    {
      id: 'best-model',
      title: `Best model: ${best.id}`,
      blocks: [{ type: 'paragraph', text: `The leader of the experiment, a ${best.algorithm} model, evaluated on the validation frame (179 rows).` }],
      subsections: [
        {
          id: 'best-metrics',
          title: 'Metrics at the operating threshold',
          blocks: [
            {
              type: 'keyValues',
              items: [
                ['Threshold (max F1)', threshold],
                ['AUC', best.auc],
                ['AUCPR', best.auc - 0.04],
                ['Log loss', best.logloss],
                ['Accuracy', (tp + tn) / (tp + tn + fp + fn)],
                ['Precision', precision],
                ['Recall', recall],
                ['F1', (2 * precision * recall) / (precision + recall)],
              ],
            },
          ],
        },
        {
          id: 'confusion',
          title: 'Confusion matrix',
          blocks: [
            {
              type: 'table',
              columns: ['Actual \\ Predicted', '0', '1', 'Error', 'Rate'],
              rows: [
                ['0', tn, fp, fp / (tn + fp), `${fp} / ${tn + fp}`],
                ['1', fn, tp, fn / (fn + tp), `${fn} / ${fn + tp}`],
                ['Total', tn + fn, fp + tp, (fp + fn) / (tp + tn + fp + fn), `${fp + fn} / ${tp + tn + fp + fn}`],
              ],
              caption: `At threshold ${threshold}`,
            },
          ],
        },
        {
          id: 'roc',
          title: 'ROC and precision-recall curves',
          blocks: [
            chart('ROC curve', {
              type: 'line',
              data: {
                datasets: [
                  { label: `${best.algorithm} (AUC ${best.auc.toFixed(4)})`, data: rocCurve(best.auc) },
                  {
                    label: 'Chance',
                    data: [
                      { x: 0, y: 0 },
                      { x: 1, y: 1 },
                    ],
                    dashed: true,
                  },
                ],
              },
              xLabel: 'False positive rate',
              yLabel: 'True positive rate',
              xMin: 0,
              xMax: 1,
              yMin: 0,
              yMax: 1,
            }),
            chart('Precision-recall curve', {
              type: 'line',
              data: { datasets: [{ label: best.algorithm, data: prCurve(best.auc, 0.38) }] },
              xLabel: 'Recall',
              yLabel: 'Precision',
              xMin: 0,
              xMax: 1,
              yMin: 0,
              yMax: 1,
            }),
          ],
        },
      ],
    },
    {
      id: 'learning',
      title: 'Learning curves',
      blocks: [
        chart(
          'Validation log loss by iteration',
          {
            type: 'line',
            data: {
              labels: Array.from({ length: 50 }, (_, i) => (i + 1) * 10),
              datasets: learningModels.map((m) => ({ label: m.id, data: Array.from({ length: 50 }, (_, i) => m.logloss + 0.35 * Math.exp(-i / (4 + 8 * rand())) + 0.004 * rand()) })),
            },
            xLabel: 'Iteration (trees or epochs)',
            yLabel: 'Log loss',
          },
          'Scoring history of the tree and neural models.',
        ),
      ],
    },
    {
      id: 'hyperparameters',
      title: 'Hyperparameters',
      blocks: ALGORITHMS.filter((a) => a !== 'StackedEnsemble' && ms.some((m) => m.algorithm === a)).map((a) => hyperparameterTable(a, ms, rand)),
    },
    {
      id: 'engine-log',
      title: 'Engine log',
      blocks: [
        {
          type: 'keyValues',
          items: [
            ['Log lines', 1842],
            ['Warnings', 3],
            ['Errors', 0],
            ['Wall time (s)', 312.4821],
          ],
        },
        {
          type: 'table',
          columns: ['Time', 'Level', 'Message'],
          rows: [
            ['10:15:02', 'INFO', 'AutoML build started: 20 models max, 600 s budget, seed 42'],
            ['10:15:03', 'WARN', 'Column "cabin" dropped: 77% missing'],
            ['10:16:40', 'WARN', 'DeepLearning_5: early stopping after 31 epochs (no improvement in 5 scoring rounds)'],
            ['10:19:11', 'WARN', 'GLM_16: lambda search stopped at the 100th value'],
            ['10:20:14', 'INFO', `AutoML build finished: ${modelCount} models, leader ${best.id}`],
          ],
        },
      ],
    },
  ];
  return {
    title: 'Experiment report: Titanic survival',
    subtitle: `${modelCount} models trained with AutoML on titanic.csv`,
    generatedAt: '2026-11-24T10:21:00.000Z',
    meta: [
      ['Project', 'Passenger analytics'],
      ['Kind', 'experiment'],
      ['Experiment', 'Titanic survival'],
      ['Author', 'ada@example.com'],
    ],
    sections,
  };
}
