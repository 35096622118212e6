"""Reference values for engine/automl/metrics.test.ts, computed with scikit-learn.

Run: python3 bench/reference/metrics_reference.py  (needs numpy, scikit-learn)
Its JSON output is pasted into the test as constants.
"""
import json
import numpy as np
from sklearn import metrics as M

rng = np.random.RandomState(7)
n = 40
y = rng.randint(0, 2, n)
p = np.round(np.clip(0.35 * y + rng.rand(n) * 0.65, 0, 1), 2)  # rounding creates ties
thr = 0.5
pred = (p >= thr).astype(int)

yk = rng.randint(0, 3, 30)
raw = rng.rand(30, 3) + np.eye(3)[yk] * 0.8
probs = raw / raw.sum(1, keepdims=True)

yr = np.round(rng.gamma(2.0, 2.0, 25), 3)
mu = np.round(yr * (0.7 + 0.6 * rng.rand(25)) + 0.1, 3)

out = {
    "binary": {
        "y": y.tolist(), "p": p.tolist(),
        "auc": M.roc_auc_score(y, p),
        "ap": M.average_precision_score(y, p),
        "logloss": M.log_loss(y, p),
        "accuracy_05": M.accuracy_score(y, pred),
        "mcc_05": M.matthews_corrcoef(y, pred),
        "f1_05": M.f1_score(y, pred),
        "balanced_error_05": 1 - M.balanced_accuracy_score(y, pred),
        "confusion_05": M.confusion_matrix(y, pred).tolist(),
        "roc_fpr": M.roc_curve(y, p, drop_intermediate=False)[0].tolist(),
        "roc_tpr": M.roc_curve(y, p, drop_intermediate=False)[1].tolist(),
    },
    "multiclass": {
        "y": yk.tolist(), "probs": np.round(probs, 6).flatten().tolist(),
    },
    "regression": {
        "y": yr.tolist(), "mu": mu.tolist(),
        "mse": M.mean_squared_error(yr, mu),
        "mae": M.mean_absolute_error(yr, mu),
        "rmsle": float(np.sqrt(M.mean_squared_log_error(yr, mu))),
        "r2": M.r2_score(yr, mu),
        "poisson": M.mean_poisson_deviance(yr, mu),
        "gamma": M.mean_gamma_deviance(yr, mu),
        "tweedie15": M.mean_tweedie_deviance(yr, mu, power=1.5),
        "pinball03": M.mean_pinball_loss(yr, mu, alpha=0.3),
    },
}
pr = np.array(out["multiclass"]["probs"]).reshape(30, 3)
pk = pr.argmax(1)
out["multiclass"].update({
    "logloss": M.log_loss(yk, pr),
    "accuracy": M.accuracy_score(yk, pk),
    "mean_per_class_error": 1 - M.balanced_accuracy_score(yk, pk),
    "confusion": M.confusion_matrix(yk, pk).tolist(),
})
print(json.dumps(out))
