import type { ExperimentWarning, Model } from '../../entities';
import type { ColumnProfile } from '../../engine/data';
import { formatNumber } from '../../engine/reports';

/**
 * The plain-language readings of report sections (`Section.reading`): one short paragraph each, saying what the
 * section's figures mean and what looks wrong in them (leakage, drift, class imbalance, a model much better on its
 * training data than on the data it did not see). Pure functions of the figures a kind already read, so every format
 * prints the same words.
 */

/** A number as the tables print it. */
const n = (x: number): string => formatNumber(x);
const pct = (share: number): string => `${formatNumber(Number((100 * share).toFixed(1)))}%`;
const plural = (count: number, word: string): string => `${formatNumber(count)} ${word}${count === 1 ? '' : 's'}`;

/** Below this share of the most frequent class, the rarest class is called rare (the quality check's default, 10%). */
export const IMBALANCE_RATIO = 0.1;
/** A training score this much better than the held-out one (relative) reads as overfitting. */
export const OVERFIT_GAP = 0.1;
/** A ranking metric this close to perfect on held-out data reads as a likely leak. */
export const TOO_GOOD = 0.995;

/** The class balance of a categorical target, from its column profile; null for a numeric target or no profile. */
export function targetBalance(profile: ColumnProfile | undefined): { classes: number; rarest: [string, number]; commonest: [string, number] } | null {
  if (!profile) return null;
  let counts: [string, number][];
  if (profile.type === 'numeric') {
    // A 0/1 (or other two-valued) numeric target: its two values sit in the histogram's first and last non-empty bins.
    if (profile.unique !== 2 || !profile.histogram?.counts?.length) return null;
    const filled = profile.histogram.counts.filter((c) => c > 0);
    if (filled.length !== 2) return null;
    counts = (
      [
        [String(profile.min), filled[0]],
        [String(profile.max), filled[1]],
      ] as [string, number][]
    ).sort((a, b) => b[1] - a[1]);
  } else counts = Object.entries(profile.top_values ?? {}).sort((a, b) => b[1] - a[1]);
  if (counts.length < 2) return null;
  return { classes: profile.unique ?? counts.length, commonest: counts[0], rarest: counts[counts.length - 1] };
}

export function dataReading(p: {
  dataset: string;
  rows: number;
  columns: number;
  target: string | null;
  score: number | null;
  failedChecks: string[];
  balance: ReturnType<typeof targetBalance>;
  missingColumns: string[];
}): string {
  const parts = [`The data is ${p.dataset}: ${plural(p.rows, 'row')} and ${plural(p.columns, 'column')}${p.target ? `, predicting ${p.target}` : ''}.`];
  if (p.score !== null) {
    parts.push(
      `Its quality score is ${n(Number(p.score.toFixed(1)))} of 100 (the share of quality checks passed, weighted by how much each matters)${p.failedChecks.length ? `; failed: ${p.failedChecks.join(', ')}` : ''}.`,
    );
  }
  if (p.balance) {
    const ratio = p.balance.rarest[1] / p.balance.commonest[1];
    parts.push(
      ratio < IMBALANCE_RATIO
        ? `The target is imbalanced: its rarest class "${p.balance.rarest[0]}" has ${pct(ratio)} as many rows as "${p.balance.commonest[0]}", so accuracy flatters a model that ignores it; read AUCPR, F1 or the confusion matrix instead.`
        : `The target's classes are reasonably balanced (the rarest has ${pct(ratio)} as many rows as the most frequent).`,
    );
  }
  if (p.missingColumns.length) parts.push(`Columns with more than a fifth of their values missing: ${p.missingColumns.slice(0, 5).join(', ')}${p.missingColumns.length > 5 ? ', …' : ''}.`);
  return parts.join(' ');
}

/** The leakage warnings of an experiment, as a sentence; empty when there are none. */
export function leakageSentence(warnings: ExperimentWarning[]): string {
  const leaks = warnings.filter((w) => w.kind === 'leakage');
  if (!leaks.length) return '';
  const named = leaks.map((w) => `${w.column} (${w.measure} ${n(Number(w.score.toFixed(4)))} on its own)`).join(', ');
  return `Possible target leakage: ${named} predict${leaks.length === 1 ? 's' : ''} the target almost perfectly by ${leaks.length === 1 ? 'itself' : 'themselves'}, which usually means ${leaks.length === 1 ? 'it is' : 'they are'} known only after the outcome; scores of models using ${leaks.length === 1 ? 'it' : 'them'} overstate what they will do on new data. Retrain with ${leaks.length === 1 ? 'that column' : 'those columns'} in ignored_columns.`;
}

export function warningsReading(warnings: ExperimentWarning[]): string {
  return `${leakageSentence(warnings)} Each warning below names the column, the measure used (AUC or R² of that column alone on a sample, or an exact dependence) and its score.`;
}

/** Which direction is better for a metric key, and what its values mean, in one clause. */
export function metricMeaning(key: string): string {
  switch (key) {
    case 'auc':
      return 'AUC is the chance that a random positive row scores above a random negative one: 0.5 is guessing, 1 is perfect';
    case 'aucpr':
      return 'AUCPR is the area under the precision-recall curve: the positive class rate is guessing, 1 is perfect';
    case 'logloss':
      return 'log loss measures how confident and right the probabilities are: lower is better, 0 is perfect';
    case 'accuracy':
      return 'accuracy is the share of rows classified right: higher is better';
    case 'mean_per_class_error':
      return 'mean per-class error averages the error rate of every class: lower is better';
    case 'rmse':
      return "RMSE is the typical size of an error, in the target's units: lower is better";
    case 'mae':
      return "MAE is the mean absolute error, in the target's units: lower is better";
    case 'r2':
      return "R² is the share of the target's variance explained: 1 is perfect, 0 no better than the mean";
    default:
      return `${key} is the metric the models are ranked by`;
  }
}

export function leaderboardReading(p: { models: Model[]; sortKey: string; larger: boolean; best: Model | null; warnings: ExperimentWarning[] }): string {
  const scored = p.models.filter((m) => typeof m.metrics[p.sortKey] === 'number');
  const parts = [`${plural(p.models.length, 'model')} ranked by ${p.sortKey}; ${metricMeaning(p.sortKey)}.`];
  if (p.best && typeof p.best.metrics[p.sortKey] === 'number') {
    const top = p.best.metrics[p.sortKey] as number;
    const runnerUp = scored.find((m) => m.id !== p.best?.id);
    parts.push(`The best, ${p.best.name}, scores ${n(Number(top.toFixed(4)))}`);
    if (runnerUp) {
      const gap = Math.abs(top - (runnerUp.metrics[p.sortKey] as number));
      parts[parts.length - 1] +=
        gap < 0.005
          ? `, within ${n(Number(gap.toFixed(4)))} of ${runnerUp.name}: a difference this small may be noise, so the simpler or faster model is as good a choice.`
          : `, ${n(Number(gap.toFixed(4)))} ahead of ${runnerUp.name}.`;
    } else parts[parts.length - 1] += '.';
    if (p.larger && ['auc', 'aucpr', 'accuracy', 'r2'].includes(p.sortKey) && top >= TOO_GOOD && !p.warnings.length) {
      parts.push(`A score this close to perfect is rare on real data: check that no column gives the answer away.`);
    }
  }
  const leak = leakageSentence(p.warnings);
  if (leak) parts.push(leak);
  return parts.join(' ');
}

/**
 * The last training and held-out value of the model's loss in its scoring history, when both exist: a training loss
 * far below the held-out one means the model learned its training rows rather than the pattern.
 */
export function overfitGap(m: Model): { metric: string; training: number; heldOut: number } | null {
  const history = (m.explain.scoring_history ?? []) as { training?: Record<string, number>; validation?: Record<string, number> }[];
  const last = [...history].reverse().find((h) => h.training && h.validation);
  if (!last?.training || !last.validation) return null;
  const metric = ['logloss', 'rmse', 'deviance'].find((k) => typeof last.training?.[k] === 'number' && typeof last.validation?.[k] === 'number');
  if (!metric) return null;
  return { metric, training: last.training[metric], heldOut: last.validation[metric] };
}

/** Where a model's metrics come from, as the engine recorded it. */
export function splitName(m: Model): string {
  const split = (m.metrics.metric_context as { split?: string } | undefined)?.split;
  if (split === 'cross_validation') return 'cross-validation (each row scored by a model that did not train on it)';
  if (split === 'validation') return 'a held-out validation set';
  if (split === 'training') return 'the training data itself (optimistic)';
  return split ? `the ${split} predictions` : 'held-out predictions';
}

export function metricsReading(m: Model, sortKey: string | null, warnings: ExperimentWarning[]): string {
  const parts = [`These are ${m.name}'s scores on ${splitName(m)}.`];
  if (sortKey && typeof m.metrics[sortKey] === 'number') parts.push(`Its ${sortKey} is ${n(Number((m.metrics[sortKey] as number).toFixed(4)))}; ${metricMeaning(sortKey)}.`);
  const gap = overfitGap(m);
  if (gap && gap.heldOut > 0) {
    const rel = (gap.heldOut - gap.training) / gap.heldOut;
    parts.push(
      rel > OVERFIT_GAP
        ? `It is much better on its training rows than on held-out ones (${gap.metric} ${n(Number(gap.training.toFixed(4)))} against ${n(Number(gap.heldOut.toFixed(4)))}): it partly memorised the training data, so expect the held-out figure, not the training one, on new data.`
        : `Its training and held-out ${gap.metric} are close (${n(Number(gap.training.toFixed(4)))} and ${n(Number(gap.heldOut.toFixed(4)))}): no sign of overfitting.`,
    );
  }
  const leak = leakageSentence(warnings);
  if (leak) parts.push(leak);
  return parts.join(' ');
}

export function curvesReading(m: Model): string {
  const auc = typeof m.metrics.auc === 'number' ? ` (AUC ${n(Number(m.metrics.auc.toFixed(4)))})` : '';
  return `The ROC curve${auc} shows how many positives are caught (true positive rate) for each share of negatives wrongly flagged; the diagonal is guessing. The precision-recall curve shows how precise the positive calls stay as more of the positives are caught: read it when the positive class is rare.`;
}

export function learningReading(m: Model): string {
  const gap = overfitGap(m);
  const base = 'The loss on the training rows and on held-out rows as the model grew (more trees or iterations); both should fall and level off.';
  if (!gap) return `${base} ${m.algo} models record no held-out curve here.`;
  return gap.heldOut > 0 && (gap.heldOut - gap.training) / gap.heldOut > OVERFIT_GAP
    ? `${base} Here the held-out ${gap.metric} ends well above the training one: the later iterations fit the training rows more than the pattern.`
    : `${base} Here the two end close together: the model generalises about as well as it fits.`;
}

export function importanceReading(features: string[], warnings: ExperimentWarning[]): string {
  const leaked = new Set(warnings.filter((w) => w.kind === 'leakage').map((w) => w.column));
  const parts = [
    `How much each feature contributed to the predictions${features.length ? `; the most important is ${features[0]}${features[1] ? `, then ${features.slice(1, 3).join(' and ')}` : ''}` : ''}. Importance says what the model relies on, not that the feature causes the outcome.`,
  ];
  const top = features.slice(0, 3).filter((f) => leaked.has(f));
  if (top.length)
    parts.push(`${top.join(' and ')} ${top.length === 1 ? 'is' : 'are'} flagged as possible leakage: a model leaning on ${top.length === 1 ? 'it' : 'them'} will not do as well on new data.`);
  return parts.join(' ');
}

export const HYPERPARAMETERS_READING =
  'The settings each model was trained with: "default" is the engine\'s starting value, "actual" what this run used (AutoML changes some of them per model). They matter when reproducing a model, less when comparing scores.';

export function engineLogReading(warnings: number, errors: number): string {
  if (!warnings && !errors) return 'What the training engine wrote while it ran: no warnings and no errors.';
  return `What the training engine wrote while it ran: ${plural(warnings, 'warning')} and ${plural(errors, 'error')}, listed below. A warning rarely invalidates the results; an error usually means a model was skipped.`;
}

export function trafficReading(p: { requests: number; errors: number; p95: number | null; days: number }): string {
  if (!p.requests) return `No prediction requests reached this deployment in the last ${p.days} days, so there is nothing to measure yet.`;
  const rate = p.errors / p.requests;
  const parts = [`${plural(p.requests, 'request')} in the last ${p.days} days, ${plural(p.errors, 'error')} (${pct(rate)}).`];
  if (rate > 0.05) parts.push('More than one request in twenty failed: look at the errors in the inference logs (often inputs of the wrong type or missing columns).');
  if (p.p95 !== null) parts.push(`95% of requests were answered within ${n(Number(p.p95.toFixed(1)))} ms.`);
  return parts.join(' ');
}

export function driftReading(p: { status: string | null; maxPsi: number | null; drifted: string[] }): string {
  const scale = 'PSI (population stability index) compares the live inputs with the training data: below 0.1 they look alike, 0.1 to 0.25 is a moderate shift, above 0.25 a large one.';
  if (p.status === null) return `${scale} No drift run yet: drift needs predict requests logged with store_payload on.`;
  if (!p.drifted.length) return `${scale} The latest run found no drifted feature (max PSI ${p.maxPsi === null ? '—' : n(Number(p.maxPsi.toFixed(4)))}).`;
  return `${scale} The latest run found drift in ${p.drifted.slice(0, 5).join(', ')}${p.drifted.length > 5 ? ', …' : ''} (max PSI ${p.maxPsi === null ? '—' : n(Number(p.maxPsi.toFixed(4)))}): the model now sees inputs unlike those it learned from, so its accuracy may have fallen; consider retraining on recent data.`;
}

export const TRANSITIONS_READING = 'Every move of this deployment between stages, newest last, with who made it and why: the audit trail of what served production when.';

export function projectDatasetsReading(datasets: { name: string; score: number | null }[]): string {
  if (!datasets.length) return 'No dataset was uploaded to this project yet.';
  const low = datasets.filter((d) => d.score !== null && d.score < 70).map((d) => d.name);
  return `${plural(datasets.length, 'dataset')}, each with the size of its latest version and its quality score (0 to 100, the share of quality checks passed).${low.length ? ` Below 70, worth a look before training: ${low.join(', ')}.` : ''}`;
}

export function projectExperimentsReading(experiments: { status: string; models: number }[]): string {
  if (!experiments.length) return 'No experiment was run in this project yet.';
  const failed = experiments.filter((e) => e.status === 'failed').length;
  const models = experiments.reduce((a, e) => a + e.models, 0);
  return `${plural(experiments.length, 'experiment')} in time order, ${plural(models, 'model')} trained in all${failed ? `; ${failed} failed (its page says why)` : ''}.`;
}

export function projectBestReading(best: { name: string; metric: string; value: number | null; leaked: string[] }[]): string {
  if (!best.length) return 'No experiment has finished with a best model yet.';
  const leaky = best.filter((b) => b.leaked.length);
  const parts = ['The best model of each experiment by its own sort metric; scores are comparable only between experiments with the same target and metric.'];
  if (leaky.length) parts.push(`Possible target leakage in ${leaky.map((b) => `${b.name} (${b.leaked.join(', ')})`).join('; ')}: those scores overstate what the models will do on new data.`);
  return parts.join(' ');
}

export function projectDeploymentsReading(deployments: { name: string; is_active: boolean; status: string | null }[]): string {
  if (!deployments.length) return 'Nothing is deployed yet.';
  const drifted = deployments.filter((d) => d.status && !['ok', 'no_drift', 'stable', 'low'].includes(d.status)).map((d) => d.name);
  const active = deployments.filter((d) => d.is_active).length;
  return `${plural(active, 'active deployment')} with the model each serves and its latest drift check.${drifted.length ? ` Drift reported for ${drifted.join(', ')}: its inputs no longer look like the training data.` : ''}${deployments.some((d) => !d.status) ? ' "Not computed" means no drift run yet (it needs predict requests logged with store_payload).' : ''}`;
}
