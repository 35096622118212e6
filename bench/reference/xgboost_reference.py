"""Reference predictions of real XGBoost for engine/automl/xgboost.test.ts.

The data is a deterministic integer formula (reproduced exactly in the test) with fewer distinct
values per feature than bins, so XGBoost's hist cuts and our bins coincide and the trees must be
the same: binary, multiclass, regression, lossguide, alpha/gamma/max_delta_step, missing values,
and TreeSHAP contributions (pred_contribs). Run: python3 bench/reference/xgboost_reference.py  (needs numpy, xgboost)
"""
import json
import numpy as np
import xgboost as xgb

n, p = 400, 4
X = np.zeros((n, p), dtype=np.float32)
y = np.zeros(n, dtype=np.float32)
yr = np.zeros(n, dtype=np.float32)
for i in range(n):
    for j in range(p):
        X[i, j] = (i * (7 + 2 * j) + j * 13 + (i * (j + 3)) % 17) % 31
    s = X[i, 0] - 15 + 0.5 * (X[i, 1] - 15) * (1 if X[i, 2] > 12 else -1) + ((i * 37) % 11 - 5)
    y[i] = 1.0 if s > 0 else 0.0
    yr[i] = s / 4.0

common = {"max_depth": 3, "eta": 0.3, "lambda": 1.0, "min_child_weight": 1.0, "tree_method": "hist", "max_bin": 256, "nthread": 1}
b = xgb.train({**common, "objective": "binary:logistic", "base_score": 0.5}, xgb.DMatrix(X, y), num_boost_round=5)
r = xgb.train({**common, "objective": "reg:squarederror", "base_score": 0.0}, xgb.DMatrix(X, yr), num_boost_round=5)
yk = np.digitize(yr, [-1.0, 1.0])  # three classes
mc = xgb.train({**common, "objective": "multi:softprob", "num_class": 3, "base_score": 0.5}, xgb.DMatrix(X, yk), num_boost_round=5)
dm = xgb.DMatrix(X)
out = {
    "xgboost": xgb.__version__,
    "binary_margin": [round(float(v), 6) for v in b.predict(dm, output_margin=True)[:40]],
    "regression": [round(float(v), 6) for v in r.predict(dm)[:40]],
    "multiclass_probs": [round(float(v), 6) for v in mc.predict(dm)[:40].flatten()],
}
# Exact TreeSHAP (cover-weighted) of the regression model: features then bias, per row.
out["regression_contribs"] = [round(float(v), 6) for v in r.predict(dm, pred_contribs=True)[:10].flatten()]
# Best-first growth.
lg = xgb.train({**common, "objective": "reg:squarederror", "base_score": 0.0, "grow_policy": "lossguide", "max_leaves": 6, "max_depth": 0},
               xgb.DMatrix(X, yr), num_boost_round=5)
out["lossguide"] = [round(float(v), 6) for v in lg.predict(dm)[:40]]
# Regularization: L1 (alpha), min split loss (gamma), max_delta_step, with lambda 2 and
# min_child_weight 3 at depth 4.
reg_common = {**common, "max_depth": 4, "lambda": 2.0, "min_child_weight": 3.0}
for name, extra in [("alpha", {"alpha": 5.0}), ("gamma", {"gamma": 20.0}), ("max_delta_step", {"max_delta_step": 0.3})]:
    m = xgb.train({**reg_common, **extra, "objective": "reg:squarederror", "base_score": 0.0}, xgb.DMatrix(X, yr), num_boost_round=5)
    out["reg_" + name] = [round(float(v), 6) for v in m.predict(dm)[:40]]
# Missing values: the learned default directions must match too.
Xm = X.copy()
Xm[np.arange(n) % 9 == 0, 0] = np.nan
Xm[np.arange(n) % 7 == 3, 1] = np.nan
rm = xgb.train({**common, "objective": "reg:squarederror", "base_score": 0.0}, xgb.DMatrix(Xm, yr), num_boost_round=5)
out["regression_missing"] = [round(float(v), 6) for v in rm.predict(xgb.DMatrix(Xm))[:80]]
print(json.dumps(out))
