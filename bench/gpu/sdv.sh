#!/usr/bin/env bash
# SDV's own CTGAN (ctgan 0.12.1, what SDV's CTGANSynthesizer runs) fitting diamonds.csv (53,940 rows, batch 500) on
# this machine: fits of 1 and 21 epochs on CUDA and of 1 and 3 on 16 CPU threads, from which the per-epoch time and a
# 300-epoch estimate follow (the data transformer is paid once in each fit). Needs python3 with torch, pandas,
# scikit-learn and scipy; ctgan, rdt and Faker come from the bundle's sdv/whl. About 4 minutes; bounded at 290 s.
#   bash gpu-bench/sdv.sh          (prints JSON lines; also "$OUT/sdv.jsonl")
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:-/tmp/out}"
SITE="${WORK:-/tmp/gpu-bench-run}/sdv-site"
mkdir -p "$OUT" "$SITE"
if ! ls "$HERE"/sdv/whl/*.whl >/dev/null 2>&1; then
  echo "no SDV wheels in $HERE/sdv/whl (build.sh could not download them): SDV's figures cannot be measured here"
  exit 1
fi
if ! python3 -c 'import torch, pandas, sklearn, scipy, tqdm' 2>/dev/null; then
  echo "SDV's CTGAN needs python3 with torch, pandas, scikit-learn, scipy and tqdm; this python3 lacks one of them"
  exit 1
fi
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" "$HERE"/sdv/whl/*.whl || exit 1
python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$HERE/sdv/diamonds.csv.xz" "$SITE/diamonds.csv"
PYTHONPATH="$SITE" PYTHONUNBUFFERED=1 timeout -k 5 290 python3 "$HERE/sdv/sdv_ctgan_fit.py" "$SITE/diamonds.csv" 2>&1 | grep -v Warning | tee "$OUT/sdv.jsonl"
