import {
  auc,
  averagePrecision,
  binaryConfusion,
  binaryLogloss,
  binaryMetrics,
  f1FromConfusion,
  maxF1Threshold,
  mccFromConfusion,
  meanPerClassErrorFromConfusion,
  meanResidualDeviance,
  multiclassMetrics,
  quantileLoss,
  regressionMetrics,
  rocCurve,
} from './metrics';

// Output of bench/reference/metrics_reference.py (scikit-learn 1.9.1), pasted verbatim.
const REF = {
  binary: {
    y: [1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0],
    p: [
      0.74, 0.62, 0.5, 0.36, 0.94, 0.44, 0.69, 0.84, 0.43, 0.65, 0.13, 0.67, 0.24, 0.66, 0.24, 0.54, 0.5, 0.2, 0.72, 0.18, 0.29, 0.23, 0.78, 0.59, 0.3, 0.47, 0.62, 0.94, 0.12, 0.48, 0.62, 0.28, 0.41,
      0.69, 0.62, 0.0, 0.06, 0.81, 0.69, 0.45,
    ],
    auc: 0.9724310776942355,
    ap: 0.9676377217553689,
    logloss: 0.3917786050273546,
    accuracy_05: 0.9,
    mcc_05: 0.8045112781954887,
    f1_05: 0.9,
    balanced_error_05: 0.09774436090225569,
    confusion_05: [
      [18, 3],
      [1, 18],
    ],
    roc_fpr: [
      0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.047619047619047616, 0.047619047619047616, 0.09523809523809523, 0.14285714285714285, 0.19047619047619047, 0.23809523809523808,
      0.2857142857142857, 0.2857142857142857, 0.3333333333333333, 0.38095238095238093, 0.42857142857142855, 0.47619047619047616, 0.5238095238095238, 0.5714285714285714, 0.6666666666666666,
      0.7142857142857143, 0.7619047619047619, 0.8095238095238095, 0.8571428571428571, 0.9047619047619048, 0.9523809523809523, 1.0,
    ],
    roc_tpr: [
      0.0, 0.10526315789473684, 0.15789473684210525, 0.21052631578947367, 0.2631578947368421, 0.3157894736842105, 0.3684210526315789, 0.5263157894736842, 0.5789473684210527, 0.631578947368421,
      0.6842105263157895, 0.8421052631578947, 0.8947368421052632, 0.8947368421052632, 0.9473684210526315, 0.9473684210526315, 0.9473684210526315, 0.9473684210526315, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
      1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    ],
  },
  multiclass: {
    y: [0, 0, 1, 0, 0, 0, 0, 2, 2, 2, 1, 2, 1, 0, 0, 1, 0, 2, 2, 1, 2, 1, 0, 1, 2, 1, 0, 0, 1, 1],
    probs: [
      0.432535, 0.212549, 0.354916, 0.580787, 0.050732, 0.368481, 0.209989, 0.420542, 0.36947, 0.636688, 0.141228, 0.222085, 0.743619, 0.146159, 0.110222, 0.42397, 0.297725, 0.278305, 0.597871,
      0.205829, 0.196301, 0.160452, 0.319249, 0.520298, 0.019677, 0.358669, 0.621653, 0.07724, 0.169696, 0.753064, 0.095485, 0.723496, 0.181019, 0.246, 0.077986, 0.676014, 0.221203, 0.474866,
      0.303931, 0.754427, 0.234822, 0.010751, 0.676765, 0.222627, 0.100609, 0.233213, 0.560257, 0.20653, 0.412863, 0.204788, 0.382349, 0.210406, 0.212476, 0.577118, 0.38309, 0.232874, 0.384036,
      0.15793, 0.70358, 0.13849, 0.299425, 0.196576, 0.503999, 0.189497, 0.581543, 0.22896, 0.504087, 0.192987, 0.302926, 0.296863, 0.646506, 0.056631, 0.355615, 0.135031, 0.509354, 0.141513,
      0.396791, 0.461696, 0.766461, 0.040673, 0.192866, 0.543013, 0.055895, 0.401092, 0.155761, 0.438777, 0.405462, 0.3304, 0.459985, 0.209615,
    ],
    logloss: 0.5886313506633503,
    accuracy: 0.9666666666666667,
    mean_per_class_error: 0.033333333333333326,
    confusion: [
      [12, 0, 0],
      [0, 9, 1],
      [0, 0, 8],
    ],
  },
  regression: {
    y: [10.784, 2.25, 1.726, 5.054, 5.002, 1.192, 8.751, 4.475, 8.731, 3.03, 12.215, 12.354, 6.837, 2.983, 1.457, 1.514, 5.388, 1.526, 4.429, 1.675, 6.153, 1.617, 9.125, 3.311, 0.39],
    mu: [11.33, 3.006, 1.695, 5.699, 3.968, 1.001, 9.549, 3.987, 7.633, 3.839, 10.142, 10.906, 7.131, 3.47, 1.573, 1.826, 4.062, 1.705, 4.749, 1.904, 7.047, 1.468, 10.462, 4.346, 0.461],
    mse: 0.7034470399999997,
    mae: 0.66664,
    rmsle: 0.12426072438175526,
    r2: 0.9439574274444565,
    poisson: 0.11365500071507306,
    gamma: 0.026006663420648817,
    tweedie15: 0.05163242844766325,
    pinball03: 0.3412399999999999,
  },
};

describe('binary metrics match scikit-learn', () => {
  const { y, p } = REF.binary;
  it('AUC, average precision and log loss', () => {
    expect(auc(y, p)).toBeCloseTo(REF.binary.auc, 12);
    expect(averagePrecision(y, p)).toBeCloseTo(REF.binary.ap, 12);
    expect(binaryLogloss(y, p)).toBeCloseTo(REF.binary.logloss, 12);
  });
  it('threshold metrics at 0.5', () => {
    const cm = binaryConfusion(y, p, 0.5);
    expect(cm).toEqual(REF.binary.confusion_05);
    expect((cm[0][0] + cm[1][1]) / y.length).toBeCloseTo(REF.binary.accuracy_05, 12);
    expect(mccFromConfusion(cm)).toBeCloseTo(REF.binary.mcc_05, 12);
    expect(f1FromConfusion(cm)).toBeCloseTo(REF.binary.f1_05, 12);
    expect(meanPerClassErrorFromConfusion(cm)).toBeCloseTo(REF.binary.balanced_error_05, 12);
  });
  it('ROC curve', () => {
    const roc = rocCurve(y, p);
    expect(roc.fpr.length).toBe(REF.binary.roc_fpr.length);
    roc.fpr.forEach((v, i) => expect(v).toBeCloseTo(REF.binary.roc_fpr[i], 12));
    roc.tpr.forEach((v, i) => expect(v).toBeCloseTo(REF.binary.roc_tpr[i], 12));
  });
  it('max-F1 threshold is the best F1 over all thresholds', () => {
    const { threshold, f1 } = maxF1Threshold(y, p);
    for (const t of new Set<number>(p)) expect(f1FromConfusion(binaryConfusion(y, p, t))).toBeLessThanOrEqual(f1 + 1e-15);
    expect(f1FromConfusion(binaryConfusion(y, p, threshold))).toBeCloseTo(f1, 15);
    const all = binaryMetrics(y, p);
    expect(all.max_f1_threshold).toBe(threshold);
    expect(all.confusion_matrix).toEqual(binaryConfusion(y, p, threshold));
  });
});

describe('multiclass metrics match scikit-learn', () => {
  it('logloss, accuracy, mean per class error, confusion', () => {
    const { y, probs } = REF.multiclass;
    const m = multiclassMetrics(y, probs, 3);
    expect(m.logloss).toBeCloseTo(REF.multiclass.logloss, 12);
    expect(m.accuracy).toBeCloseTo(REF.multiclass.accuracy, 12);
    expect(m.mean_per_class_error).toBeCloseTo(REF.multiclass.mean_per_class_error, 12);
    expect(m.confusion_matrix).toEqual(REF.multiclass.confusion);
  });
});

describe('regression metrics match scikit-learn', () => {
  const { y, mu } = REF.regression;
  it('MSE, RMSE, MAE, RMSLE, R2', () => {
    const m = regressionMetrics(y, mu);
    expect(m.mse).toBeCloseTo(REF.regression.mse, 12);
    expect(m.rmse).toBeCloseTo(Math.sqrt(REF.regression.mse), 12);
    expect(m.mae).toBeCloseTo(REF.regression.mae, 12);
    expect(m.rmsle).toBeCloseTo(REF.regression.rmsle, 12);
    expect(m.r2).toBeCloseTo(REF.regression.r2, 12);
    expect(m.mean_residual_deviance).toBeCloseTo(REF.regression.mse, 12);
  });
  it('deviances and pinball loss', () => {
    expect(meanResidualDeviance(y, mu, { distribution: 'poisson' })).toBeCloseTo(REF.regression.poisson, 12);
    expect(meanResidualDeviance(y, mu, { distribution: 'gamma' })).toBeCloseTo(REF.regression.gamma, 12);
    expect(meanResidualDeviance(y, mu, { distribution: 'tweedie', tweediePower: 1.5 })).toBeCloseTo(REF.regression.tweedie15, 12);
    expect(quantileLoss(y, mu, 0.3)).toBeCloseTo(REF.regression.pinball03, 12);
  });
});
