"""PyTorch's figure for bench/gpu's `layer_chain`: 8 chained Linear(256, 256) + ReLU on a 500x256 batch, forward
only, the same work as the engine's fused matmul+bias+ReLU chain. CUDA when there is one, then the CPU (16 threads,
TORCH_REF_CPU_THREADS). Prints JSON lines in torch_ref.py's format: `sync each step` (ms_per_step, a synchronize
after every step) and `end_sync` (one synchronize after all steps). Env: TORCH_CHAIN_BUDGET_S (default 20).
"""
import json
import os
import time

T0 = time.time()
BUDGET_S = float(os.environ.get("TORCH_CHAIN_BUDGET_S", "20"))
ROWS, WIDTH, LAYERS = 500, 256, 8


def log(**o):
    print(json.dumps({"t_s": round(time.time() - T0, 3), "part": "torch", **o}, default=str), flush=True)


try:
    import torch
except Exception as e:  # noqa: BLE001
    log(step="import_torch", ok=False, error=repr(e))
    raise SystemExit(0)


def bench(dev, max_s):
    torch.manual_seed(1)
    layers = [torch.nn.Linear(WIDTH, WIDTH).to(dev) for _ in range(LAYERS)]
    x = torch.rand(ROWS, WIDTH, device=dev)

    def step():
        with torch.no_grad():
            h = x
            for lin in layers:
                h = torch.relu(lin(h))
        return h

    def sync():
        if dev.type == "cuda":
            torch.cuda.synchronize(dev)

    for _ in range(5):
        step()
        sync()
    times = []
    t0 = time.perf_counter()
    while len(times) < 200 and (not times or time.perf_counter() - t0 < max_s / 2):
        t = time.perf_counter()
        step()
        sync()
        times.append((time.perf_counter() - t) * 1e3)
    each = (time.perf_counter() - t0) * 1e3 / len(times)
    k = len(times)
    t = time.perf_counter()
    for _ in range(k):
        step()
    sync()
    end = (time.perf_counter() - t) * 1e3 / k
    s = sorted(times)
    log(result="layer_chain", device=dev.type, ms_per_step=round(each, 4), iters=k, median_ms=round(s[k // 2], 4),
        end_sync={"iters": k, "ms_per_step": round(end, 4)})


def main():
    if torch.cuda.is_available():
        log(step="import_torch", ok=True, torch=torch.__version__, device=torch.cuda.get_device_name(0))
        bench(torch.device("cuda:0"), BUDGET_S / 2)
    torch.set_num_threads(int(os.environ.get("TORCH_REF_CPU_THREADS", "16")))
    bench(torch.device("cpu"), BUDGET_S / 2)


if __name__ == "__main__":
    main()
