"""Peers on the same splits: LightGBM, XGBoost and scikit-learn HistGradientBoosting with
default parameters, and H2O AutoML with the same time budget as ours.

Usage: python3 bench/automl/peers.py SPLIT_DIR BUDGET_SECS > peers.jsonl
One JSON line per (dataset, peer): {"dataset", "peer", "metric", "value", "seconds"}.
Metrics: AUC (binary, higher is better), logloss (multiclass), RMSE (regression).
"""
import json
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import log_loss, mean_squared_error, roc_auc_score

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = json.load(open(os.path.join(HERE, "datasets.json")))


def frames(split_dir, name, target):
    tr = pd.read_csv(os.path.join(split_dir, name, "train.csv"))
    te = pd.read_csv(os.path.join(split_dir, name, "test.csv"))
    return tr, te


def encode(tr, te, target):
    """Categoricals as pandas category (shared levels), for the GBDT libraries."""
    X, Xt = tr.drop(columns=[target]), te.drop(columns=[target])
    for c in X.columns:
        # Datetime text (taxis pickup/dropoff) becomes epoch seconds, as the service expands it.
        if not pd.api.types.is_numeric_dtype(X[c]):
            parsed = pd.to_datetime(X[c], errors="coerce")
            if parsed.notna().mean() > 0.95:
                X[c] = parsed.astype("int64") / 1e9
                Xt[c] = pd.to_datetime(Xt[c], errors="coerce").astype("int64") / 1e9
                continue
        if not pd.api.types.is_numeric_dtype(X[c]) or pd.api.types.is_bool_dtype(X[c]):
            cats = pd.Categorical(pd.concat([X[c], Xt[c]]).astype(str)).categories
            X[c] = pd.Categorical(X[c].astype(str), categories=cats)
            Xt[c] = pd.Categorical(Xt[c].astype(str), categories=cats)
    return X, Xt


def score(kind, y, pred, classes=None):
    if kind == "binary":
        return "AUC", float(roc_auc_score(y, pred))
    if kind == "multiclass":
        return "logloss", float(log_loss(y, pred, labels=classes))
    return "RMSE", float(np.sqrt(mean_squared_error(y, pred)))


def run_gbdt(peer, kind, X, y, Xt):
    import lightgbm as lgb
    import xgboost as xgb
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    if peer == "lightgbm":
        m = (lgb.LGBMRegressor if kind == "regression" else lgb.LGBMClassifier)(verbose=-1, random_state=42)
    elif peer == "xgboost":
        m = (xgb.XGBRegressor if kind == "regression" else xgb.XGBClassifier)(tree_method="hist", enable_categorical=True, random_state=42)
    else:
        m = (HistGradientBoostingRegressor if kind == "regression" else HistGradientBoostingClassifier)(categorical_features="from_dtype", random_state=42)
    m.fit(X, y)
    if kind == "regression":
        return m.predict(Xt), None
    p = m.predict_proba(Xt)
    return (p[:, 1] if kind == "binary" else p), list(m.classes_)


def main(split_dir, budget):
    only = os.environ.get("BENCH_DATASETS")
    for name, d in SPEC.items():
        if only and name not in only.split(","):
            continue
        target, kind = d["target"], d["kind"]
        tr, te = frames(split_dir, name, target)
        X, Xt = encode(tr, te, target)
        y, yt = tr[target], te[target]
        if kind != "regression":
            classes = sorted(pd.concat([y, yt]).astype(str).unique())
            y, yt = y.astype(str).map(classes.index), yt.astype(str).map(classes.index)
        for peer in ["lightgbm", "xgboost", "sklearn_hgb"]:
            t0 = time.time()
            pred, cls = run_gbdt(peer, kind, X, y, Xt)
            metric, value = score(kind, yt, pred, cls)
            print(json.dumps({"dataset": name, "peer": peer, "metric": metric, "value": value, "seconds": time.time() - t0}), flush=True)
        try:
            import h2o
            from h2o.automl import H2OAutoML

            h2o.init(nthreads=2, max_mem_size="4G", verbose=False)
            h2o.no_progress()
            htr, hte = h2o.H2OFrame(tr), h2o.H2OFrame(te)
            if kind != "regression":
                htr[target] = htr[target].asfactor()
                hte[target] = hte[target].asfactor()
            t0 = time.time()
            aml = H2OAutoML(max_runtime_secs=budget, seed=42, nfolds=5)
            aml.train(y=target, training_frame=htr)
            p = aml.leader.predict(hte).as_data_frame()
            if kind == "regression":
                pred, cls = p["predict"].values, None
                yt_h = te[target]
            else:
                # Probability columns follow the factor's level order (named p0/p1 for numeric levels).
                levels = htr[target].levels()[0]
                probs = p.iloc[:, 1:].values
                pred, cls = (probs[:, 1] if kind == "binary" else probs), list(range(len(levels)))
                yt_h = te[target].astype(str).map(levels.index)
            metric, value = score(kind, yt_h, pred, cls)
            print(json.dumps({"dataset": name, "peer": "h2o_automl", "metric": metric, "value": value, "seconds": time.time() - t0}), flush=True)
            h2o.remove_all()
        except Exception as e:  # H2O missing or failed: say so, keep the other peers
            print(json.dumps({"dataset": name, "peer": "h2o_automl", "error": str(e)[:300]}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 120)
