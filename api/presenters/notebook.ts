import type { Experiment } from '../../entities';

/**
 * A Jupyter notebook (nbformat 4) that reproduces an experiment's results through this API:
 * the leaderboard, the best model's metrics and a prediction. Plain `requests`, an API key
 * from the environment, nothing else to install.
 */
export function experimentNotebook(exp: Experiment, baseUrl: string, columns: { name: string; dtype: string }[], best: { id: string; onnxArtifactId: string | null } | null): Record<string, unknown> {
  const md = (text: string) => ({ cell_type: 'markdown', metadata: {}, source: text.split('\n').map((l, i, a) => (i < a.length - 1 ? `${l}\n` : l)) });
  const code = (text: string) => ({ cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: text.split('\n').map((l, i, a) => (i < a.length - 1 ? `${l}\n` : l)) });
  const example = Object.fromEntries(columns.filter((c) => c.name !== exp.targetColumn).map((c) => [c.name, ['int64', 'float64'].includes(c.dtype) ? 0 : '']));
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    cells: [
      md(
        `# Experiment: ${exp.name}\n\nTarget \`${exp.targetColumn}\` (${exp.problemKind}), sort metric \`${String(exp.config.sort_metric)}\`.\nSet \`MLSVC_API_KEY\` to a key with the \`read:experiments\`, \`read:models\`, \`read:projects\` and \`predict:models\` scopes. Needs \`pip install requests onnxruntime numpy\`.`,
      ),
      code(
        `import os, requests, numpy as np, onnxruntime as ort\nBASE = os.environ.get("MLSVC_URL", ${JSON.stringify(baseUrl)})\nH = {"Authorization": f"Bearer {os.environ['MLSVC_API_KEY']}"}\nEXPERIMENT_ID = ${JSON.stringify(exp.id)}\nBEST_MODEL_ID = ${JSON.stringify(best?.id ?? null)}\nONNX_ARTIFACT_ID = ${JSON.stringify(best?.onnxArtifactId ?? null)}`,
      ),
      md('## Leaderboard'),
      code(
        `exp = requests.get(f"{BASE}/api/experiments/{EXPERIMENT_ID}", headers=H).json()\nfor rank, m in enumerate(exp["models"], 1):\n    print(rank, m["name"], m["algo"], {k: v for k, v in m["metrics"].items() if isinstance(v, (int, float))})`,
      ),
      md(
        '## Score the best model locally with ONNX Runtime\n\nThe ONNX graph holds the preprocessing: numeric inputs are float32 `[N, 1]` (NaN for missing), categorical inputs are strings `[N, 1]`. Datetime columns are expanded into `<column>_year`, `_month`, `_day`, `_dayofweek`, `_hour` and `_epoch` (milliseconds) inputs.',
      ),
      code(
        `onnx_bytes = requests.get(f"{BASE}/api/artifacts/{ONNX_ARTIFACT_ID}/download", headers=H).content\nsess = ort.InferenceSession(onnx_bytes)\nrow = ${JSON.stringify(example)}\ndef feed(inp, value):\n    if inp.type == "tensor(string)":\n        return np.array([["" if value is None else str(value)]], dtype=object)\n    return np.array([[np.nan if value in (None, "") else float(value)]], dtype=np.float32)\nfeeds = {i.name: feed(i, row.get(i.name)) for i in sess.get_inputs()}\noutputs = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))\noutputs`,
      ),
      md('## The same row through the API'),
      code(`requests.post(f"{BASE}/api/models/{BEST_MODEL_ID}/predict", headers=H, json={"inputs": row, "options": {"include_contributions": False}}).json()`),
    ],
  };
}
