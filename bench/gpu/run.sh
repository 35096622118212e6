#!/usr/bin/env bash
# bench/gpu on a GPU machine, from the bundle build.sh made (no registry needed):   bash gpu-bench/run.sh
# Prints the engine's per-step times beside PyTorch's for the same work on the same machine, and the ratio.
# Everything printed also goes to "$OUT/run.log" (OUT defaults to /tmp/out); the table to "$OUT/table.md".
# Bounded: every part has its own time limit, about 4.5 minutes in all, whatever fails.
# On a machine without a GPU (a smoke test, under two minutes): bash run.sh --smoke
#   (Mesa's software renderer: GPU_ALLOW_SOFTWARE=1, EGL_PLATFORM=surfaceless; a few steps a case; PyTorch's CPU
#   figures only if torch is installed)
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SMOKE=""
if [ "${1:-}" = "--smoke" ]; then
  SMOKE=smoke
  export GPU_ALLOW_SOFTWARE="${GPU_ALLOW_SOFTWARE:-1}" EGL_PLATFORM="${EGL_PLATFORM:-surfaceless}"
  ENGINE_S="${ENGINE_S:-75}" TORCH_S="${TORCH_S:-10}" FIT_S="${FIT_S:-30}"
fi
OUT="${OUT:-/tmp/out}"
WORK="${WORK:-/tmp/gpu-bench-run}"
ENGINE_S="${ENGINE_S:-90}"       # the engine's cases share this many seconds
TORCH_S="${TORCH_S:-90}"         # torch_ref.py's budget
FIT_S="${FIT_S:-170}"            # the whole CTGAN fit of diamonds.csv (past it: stopped, and the whole projected)
NV=/usr/local/nvidia             # where NVIDIA's container toolkit mounts the driver's files
mkdir -p "$OUT"

section() { echo; echo "=== $* [$(date +%T), +${SECONDS}s]"; }

# xz-decompress $1 to $2, with Python's lzma where there is no xz binary.
unxz_to() {
  if command -v xz >/dev/null 2>&1; then xz -dc "$1" > "$2"
  else python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"), 1 << 20)' "$1" "$2"
  fi
}

# Unpack a .deb into $2: dpkg -x, or (no dpkg) Python reading the ar archive and its data.tar.*.
deb_x() {
  if command -v dpkg >/dev/null 2>&1; then dpkg -x "$1" "$2"
  else python3 - "$1" "$2" <<'PY'
import io, sys, tarfile
data = open(sys.argv[1], 'rb').read()
pos = 8
while pos < len(data):
    name = data[pos:pos + 16].decode().strip().rstrip('/')
    size = int(data[pos + 48:pos + 58].decode().strip())
    if name.startswith('data.tar'):
        tarfile.open(fileobj=io.BytesIO(data[pos + 60:pos + 60 + size])).extractall(sys.argv[2])
    pos += 60 + size + (size & 1)
PY
  fi
}

main() {
  section "machine"
  uname -srm; echo "cpus: $(nproc)"
  timeout -k 2 10 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"

  section "Node, dawn.node and the Vulkan loader"
  rm -rf "$WORK" && mkdir -p "$WORK/node_modules/webgpu/dist/linux-x64" "$WORK/side"
  NODE="$WORK/node.bin"
  unxz_to "$HERE/node/node.xz" "$NODE" && chmod +x "$NODE"
  "$NODE" --version || { echo "node does not run from $WORK (noexec?): set WORK to another folder"; return 1; }
  cp "$HERE/bench.cjs" "$WORK/"
  cp "$HERE/node_modules/webgpu/package.json" "$WORK/node_modules/webgpu/"
  unxz_to "$HERE/node_modules/webgpu/dist/linux-x64/dawn.node.xz" "$WORK/node_modules/webgpu/dist/linux-x64/dawn.node"
  EXTRA_LD=""
  # Each .deb's library, unpacked beside the bundle (not into /) when the system lacks it: Dawn opens the loader by
  # name and the loader opens the ICD, which LD_LIBRARY_PATH finds.
  for deb in "$HERE"/debs/*.deb; do
    case "$(basename "$deb")" in
      libvulkan1_*) so=libvulkan.so.1 ;; libglvnd0_*) so=libGLdispatch.so.0 ;; libegl1_*) so=libEGL.so.1 ;;
      libgles2_*) so=libGLESv2.so.2 ;; *) so="" ;;
    esac
    if [ -n "$so" ] && ldconfig -p 2>/dev/null | grep -q "$so "; then echo "the system has $so"
    else deb_x "$deb" "$WORK/side" && echo "unpacked $(basename "$deb")" && EXTRA_LD="$WORK/side/usr/lib/x86_64-linux-gnu"
    fi
  done
  ICD="$NV/share/vulkan/icd.d/nvidia_icd.json"
  [ -f "$ICD" ] || ICD="$(ls /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json 2>/dev/null | head -1)"
  if [ -n "$ICD" ] && [ -f "$ICD" ]; then
    export VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD"
    echo "VK_DRIVER_FILES=$ICD"
    # The ICD names its library without a path; where the toolkit mounted it outside the ld cache, add that folder.
    for d in "$NV/lib64" "$NV/lib"; do [ -d "$d" ] && EXTRA_LD="$EXTRA_LD:$d"; done
  else
    echo "no NVIDIA Vulkan ICD json (AMD and Intel drivers register theirs under /usr/share/vulkan/icd.d)"
  fi
  export LD_LIBRARY_PATH="${EXTRA_LD#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export VK_LOADER_DEBUG="${VK_LOADER_DEBUG:-error}"
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"

  section "engine (bench.cjs run: ${ENGINE_S} s for its cases)"
  (cd "$WORK" && timeout -k 5 $((ENGINE_S + 20)) "$NODE" bench.cjs run "$OUT" "$ENGINE_S" $SMOKE 2>&1 | grep -v 'artificially reduced'
    echo "(engine exit ${PIPESTATUS[0]})")

  section "CTGAN fit of diamonds.csv (bench.cjs fit: ${FIT_S} s at most)"
  unxz_to "$HERE/sdv/diamonds.csv.xz" "$WORK/diamonds.csv"
  (cd "$WORK" && timeout -k 5 $((FIT_S + 60)) "$NODE" bench.cjs fit "$OUT" "$WORK/diamonds.csv" "$FIT_S" $SMOKE 2>&1 | grep -v 'artificially reduced'
    echo "(fit exit ${PIPESTATUS[0]})")

  section "PyTorch (torch_ref.py, torch_chain.py: CUDA, then 16 CPU threads)"
  rm -f "$OUT"/torch*.jsonl
  if python3 -c 'import torch' 2>/dev/null; then
    PYTHONUNBUFFERED=1 TORCH_REF_BUDGET_S="$TORCH_S" timeout -k 5 $((TORCH_S + 20)) python3 "$HERE/torch_ref.py" > "$OUT/torch_ref.jsonl"
    echo "(torch_ref.py exit $?)"
    PYTHONUNBUFFERED=1 TORCH_CHAIN_BUDGET_S=20 timeout -k 5 30 python3 "$HERE/torch_chain.py" > "$OUT/torch_chain.jsonl"
    echo "(torch_chain.py exit $?)"
  else
    echo "skipped: python3 has no torch"
  fi

  section "table"
  timeout -k 2 20 "$NODE" "$WORK/bench.cjs" table "$OUT"
  section "done in ${SECONDS}s"
}

main 2>&1 | tee "$OUT/run.log"
