#!/usr/bin/env bash
# Builds bench/gpu's self-contained bundle on a CPU machine, for a GPU machine that reaches no registry:
#   bash bench/gpu/build.sh [out-dir]      (default bench/results/gpu-bench; then gpu-bench.tar beside it)
# Needs node_modules (the `webgpu` package, rolldown), xz, apt-get (the Vulkan loader .deb) and, for the SDV wheels,
# pip with a registry (skipped with a note when it has none). The bundle:
#   bench.cjs                                   the benchmark, one file bundled by rolldown (Vite's bundler here)
#   node_modules/webgpu/dist/linux-x64/dawn.node.xz, node_modules/webgpu/package.json
#   node/node.xz, node/VERSION                  this machine's Node, xz -9
#   debs/*.deb                                  the Vulkan loader and glvnd, each unpacked beside the bundle when the system lacks it
#   torch_ref.py, torch_chain.py                PyTorch's figures for the same work
#   sdv/                                        SDV's CTGAN fit of diamonds.csv (sdv.sh; wheels and the data beside it)
#   run.sh, sdv.sh, README.md
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT_DIR="${1:-$REPO/bench/results/gpu-bench}"
KIT="${GPU_KIT:-$REPO/../shared/gpu}"                 # the probe kit: torch_ref.py and the SDV scripts
DATASETS="${DATASETS:-$REPO/../shared/datasets}"
WHEELS_CACHE="${WHEELS_CACHE:-$HOME/.cache/mlsvc/gpu-bench-wheels}"
LIMIT_MIB=60
cd "$REPO"

echo "== bench.cjs (rolldown: bench/gpu/bench.ts and what it imports, one CommonJS file)"
rm -rf "$OUT_DIR" && mkdir -p "$OUT_DIR"
npx --no-install rolldown bench/gpu/bench.ts --platform node --format cjs --external @duckdb/node-api --file "$OUT_DIR/bench.cjs" --logLevel warn

echo "== dawn.node (the webgpu package's prebuilt Dawn for linux-x64)"
WEBGPU_DIR="$(dirname "$(node -p "require.resolve('webgpu/package.json')")")"
mkdir -p "$OUT_DIR/node_modules/webgpu/dist/linux-x64"
cp "$WEBGPU_DIR/package.json" "$WEBGPU_DIR/LICENSE.md" "$OUT_DIR/node_modules/webgpu/"
xz -6 -T2 -c "$WEBGPU_DIR/dist/linux-x64/dawn.node" > "$OUT_DIR/node_modules/webgpu/dist/linux-x64/dawn.node.xz"

echo "== node $(node --version) (xz -9; cached in ~/.cache/mlsvc while the version is the same)"
NODE_CACHE="$HOME/.cache/mlsvc/gpu-bench-node"
mkdir -p "$NODE_CACHE" "$OUT_DIR/node"
if [ "$(cat "$NODE_CACHE/VERSION" 2>/dev/null)" != "$(node --version)" ] || [ ! -f "$NODE_CACHE/node.xz" ]; then
  xz -9e -T2 -c "$(command -v node)" > "$NODE_CACHE/node.xz.tmp" && mv "$NODE_CACHE/node.xz.tmp" "$NODE_CACHE/node.xz"
  node --version > "$NODE_CACHE/VERSION"
fi
cp "$NODE_CACHE/node.xz" "$NODE_CACHE/VERSION" "$OUT_DIR/node/"

# NVIDIA's Vulkan ICD (libGLX_nvidia.so.0) links against glvnd's libGLdispatch: without libglvnd0 the loader finds
# the ICD but cannot get vkCreateInstance from it (seen on the H200 machine, whose image has neither).
DEBS="libvulkan1 libglvnd0 libegl1 libgles2"
echo "== the Vulkan loader and glvnd (apt-get download $DEBS)"
mkdir -p "$OUT_DIR/debs"
(cd "$OUT_DIR/debs" && { apt-get download -qq $DEBS 2>/dev/null || { apt-get update -qq && apt-get download -qq $DEBS; }; })

echo "== PyTorch and SDV references"
cp "$KIT/torch_ref.py" bench/gpu/torch_chain.py bench/gpu/run.sh bench/gpu/sdv.sh bench/gpu/README.md "$OUT_DIR/"
mkdir -p "$OUT_DIR/sdv/whl"
cp "$KIT/sdv_ctgan_fit.py" "$OUT_DIR/sdv/"
xz -9 -c "$DATASETS/diamonds.csv" > "$OUT_DIR/sdv/diamonds.csv.xz"
# SDV's CTGAN as the H200 run had it (ctgan 0.12.1 and rdt, Faker without their dependencies: that machine's Python
# has torch, pandas, scikit-learn and scipy). Downloaded once into a cache.
mkdir -p "$WHEELS_CACHE"
if ! ls "$WHEELS_CACHE"/ctgan-*.whl "$WHEELS_CACHE"/rdt-*.whl "$WHEELS_CACHE"/faker-*.whl >/dev/null 2>&1; then
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$WHEELS_CACHE" 'ctgan==0.12.1' 'rdt>=1.14,<2' Faker ||
    echo "no SDV wheels (pip could not download them): sdv.sh will say so on the GPU machine"
fi
cp "$WHEELS_CACHE"/*.whl "$OUT_DIR/sdv/whl/" 2>/dev/null || true

echo "== the bundle"
(cd "$OUT_DIR" && find . -type f -printf '%10s  %p\n' | sort -k2)
tar -cf "$OUT_DIR.tar" -C "$(dirname "$OUT_DIR")" "$(basename "$OUT_DIR")"
SIZE=$(stat -c %s "$OUT_DIR.tar")
echo "$OUT_DIR.tar: $((SIZE / 1024 / 1024)) MiB ($SIZE bytes)"
if [ "$SIZE" -gt $((LIMIT_MIB * 1024 * 1024)) ]; then
  echo "the bundle is over ${LIMIT_MIB} MiB" >&2
  exit 1
fi
