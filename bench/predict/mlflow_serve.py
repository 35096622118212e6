"""Trains a LightGBM classifier on titanic (the columns the service's model sees) and serves it
with `mlflow models serve` on the given port. Prints READY when /ping answers.

Usage: python3 bench/predict/mlflow_serve.py TITANIC_CSV PORT WORKDIR
"""
import os
import subprocess
import sys
import time
import urllib.request

import lightgbm as lgb
import mlflow.sklearn
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OrdinalEncoder

csv, port, work = sys.argv[1], sys.argv[2], sys.argv[3]
df = pd.read_csv(csv).drop(columns=["alive"])
y = df.pop("survived")
# Text columns go through an ordinal encoder inside the pipeline, so JSON records score as sent.
cat = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c])]
df[cat] = df[cat].astype(str)
pre = ColumnTransformer([("cat", OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1), cat)], remainder="passthrough")
model = Pipeline([("pre", pre), ("lgb", lgb.LGBMClassifier(n_estimators=100, verbose=-1))]).fit(df, y)
path = os.path.join(work, "mlflow-model")
if os.path.exists(path):
    import shutil
    shutil.rmtree(path)
mlflow.sklearn.save_model(model, path, serialization_format="cloudpickle", pyfunc_predict_fn="predict_proba")
proc = subprocess.Popen(["mlflow", "models", "serve", "-m", path, "-p", port, "-h", "127.0.0.1", "--env-manager", "local", "-w", "2"])
for _ in range(120):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=1)
        print("READY", flush=True)
        break
    except Exception:
        time.sleep(1)
proc.wait()
