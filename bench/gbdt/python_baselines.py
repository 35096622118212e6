"""LightGBM and XGBoost baselines for bench/gbdt (same data, split and settings as bench.ts).

Settings: 100 trees, depth 6 (LightGBM: num_leaves 64, max_depth 6), learning rate 0.1, 255 bins,
histogram method, 2 threads; train on the first 80% of rows, AUC on the last 20%.
Run: python3 bench/gbdt/python_baselines.py [path] [lightgbm|xgboost|all] [threads]   (pip install numpy scikit-learn lightgbm xgboost)
Prints one JSON line per library: {"library", "threads", "seconds", "auc"}. Threads default to 2.
"""
import json
import sys
import time
import numpy as np
from sklearn.metrics import roc_auc_score

path = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else "/tmp/gbdt/data.f32"
# Optional second argument runs one library only (e.g. to measure its peak RSS alone).
only = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "all" else None
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 2
data = np.fromfile(path, dtype="<f4").reshape(-1, 29)
X, y = data[:, :28], data[:, 28]
cut = int(len(y) * 0.8)
Xtr, ytr, Xte, yte = X[:cut], y[:cut], X[cut:], y[cut:]

if only in (None, "lightgbm"):
    import lightgbm as lgb

    t = time.time()
    m = lgb.train(
        {"objective": "binary", "num_leaves": 64, "max_depth": 6, "learning_rate": 0.1, "max_bin": 255,
         "num_threads": threads, "min_data_in_leaf": 1, "min_sum_hessian_in_leaf": 1.0, "lambda_l2": 1.0, "verbose": -1},
        lgb.Dataset(Xtr, ytr), num_boost_round=100)
    sec = time.time() - t
    print(json.dumps({"library": "lightgbm " + lgb.__version__, "threads": threads, "seconds": round(sec, 2), "auc": float(roc_auc_score(yte, m.predict(Xte)))}))

if only in (None, "xgboost"):
    import xgboost as xgb

    t = time.time()
    m = xgb.train({"objective": "binary:logistic", "max_depth": 6, "eta": 0.1, "max_bin": 255, "tree_method": "hist", "nthread": threads},
                  xgb.DMatrix(Xtr, ytr), num_boost_round=100)
    sec = time.time() - t
    print(json.dumps({"library": "xgboost " + xgb.__version__, "threads": threads, "seconds": round(sec, 2), "auc": float(roc_auc_score(yte, m.predict(xgb.DMatrix(Xte))))}))
