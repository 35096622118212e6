"""Reference predictions of scikit-learn gradient boosting for engine/automl/gbm.test.ts.

H2O's GBM for gaussian and bernoulli is Friedman's gradient boosting: squared-error trees on the
negative gradient, leaves set to the mean residual (gaussian) or one Newton step (bernoulli),
starting from the mean / prior log-odds. scikit-learn's GradientBoosting is the same algorithm
(its friedman_mse criterion ranks splits like squared error here), so on integer data (no binning
differences) the predictions must agree. Run: python3 bench/reference/gbm_reference.py (numpy, scikit-learn)
"""
import json
import numpy as np
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor

n, p = 400, 4
X = np.zeros((n, p))
y = np.zeros(n)
yr = np.zeros(n)
for i in range(n):
    for j in range(p):
        X[i, j] = (i * (7 + 2 * j) + j * 13 + (i * (j + 3)) % 17) % 31
    s = X[i, 0] - 15 + 0.5 * (X[i, 1] - 15) * (1 if X[i, 2] > 12 else -1) + ((i * 37) % 11 - 5)
    y[i] = 1.0 if s > 0 else 0.0
    yr[i] = s / 4.0
yk = np.digitize(yr, [-1.0, 1.0])  # three classes

kw = dict(n_estimators=5, learning_rate=0.1, max_depth=3, min_samples_leaf=10, random_state=0)
reg = GradientBoostingRegressor(**kw).fit(X, yr)
clf = GradientBoostingClassifier(**kw).fit(X, y)
multi = GradientBoostingClassifier(**kw).fit(X, yk)
print(json.dumps({
    "regression": [round(float(v), 9) for v in reg.predict(X[:40])],
    "binary_p1": [round(float(v), 9) for v in clf.predict_proba(X[:40])[:, 1]],
    "multiclass_probs": [round(float(v), 9) for v in multi.predict_proba(X[:40]).flatten()],
}))
