import { bestIndex, h2oShouldStop, resolveStoppingMetric, resolveThreads } from './training';

describe('early stopping rules', () => {
  it('H2O moving-average rule', () => {
    // Improving steadily: keep going.
    expect(h2oShouldStop([1, 0.9, 0.8, 0.7, 0.6, 0.5], 'logloss', 2, 0.001)).toBe(false);
    // Flat for the last rounds: stop.
    expect(h2oShouldStop([1, 0.9, 0.8, 0.8, 0.8, 0.8], 'logloss', 2, 0.001)).toBe(true);
    // Too few events to judge.
    expect(h2oShouldStop([1, 1, 1], 'logloss', 2, 0.001)).toBe(false);
    // AUC is maximized: rising AUC keeps going, falling AUC stops.
    expect(h2oShouldStop([0.7, 0.75, 0.8, 0.85], 'auc', 2, 0.001)).toBe(false);
    expect(h2oShouldStop([0.7, 0.8, 0.79, 0.78, 0.77], 'auc', 2, 0.001)).toBe(true);
    // Improvement smaller than the relative tolerance counts as none.
    expect(h2oShouldStop([1, 1, 0.999, 0.999], 'deviance', 2, 0.01)).toBe(true);
  });

  it('best index and metric names', () => {
    expect(bestIndex([0.5, 0.3, 0.4], 'logloss')).toBe(1);
    expect(bestIndex([0.5, 0.9, 0.9], 'auc')).toBe(1);
    expect(resolveStoppingMetric('AUTO', 'binary')).toBe('logloss');
    expect(resolveStoppingMetric('AUTO', 'regression')).toBe('deviance');
    expect(resolveStoppingMetric('misclassification', 'multiclass')).toBe('classification_error');
    expect(resolveThreads(3)).toBe(3);
    expect(resolveThreads(-1)).toBeGreaterThanOrEqual(1);
  });
});
