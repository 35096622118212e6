"""Fixed 75/25 splits of the shared datasets (seed 42), written once for every contestant.

Usage: python3 bench/automl/split.py OUT_DIR
Writes OUT_DIR/<name>/train.csv and test.csv with a header row (headerless sources get
column_1..column_n, the names the service gives them). Leaking columns listed in
datasets.json are dropped for everyone.
"""
import json
import os
import sys

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.environ.get("DATASETS_DIR", os.path.join(ROOT, "..", "shared", "datasets"))


def main(out_dir: str) -> None:
    spec = json.load(open(os.path.join(HERE, "datasets.json")))
    for name, d in spec.items():
        path = os.path.join(DATA, d["file"])
        if d.get("headerless"):
            df = pd.read_csv(path, header=None)
            df.columns = [f"column_{i + 1}" for i in range(df.shape[1])]
        else:
            df = pd.read_csv(path)
        df = df.drop(columns=d.get("drop", []))
        df = df[df[d["target"]].notna()]
        rng = np.random.default_rng(42)
        idx = rng.permutation(len(df))
        cut = int(len(df) * 0.75)
        os.makedirs(os.path.join(out_dir, name), exist_ok=True)
        df.iloc[idx[:cut]].to_csv(os.path.join(out_dir, name, "train.csv"), index=False)
        df.iloc[idx[cut:]].to_csv(os.path.join(out_dir, name, "test.csv"), index=False)
        print(name, len(df), "rows")


if __name__ == "__main__":
    main(sys.argv[1])
