import type { Experiment } from '../../entities';

/**
 * A Jupyter notebook (nbformat 4) that reproduces an experiment's results through this API:
 * the leaderboard, the best model's metrics and a prediction. Plain `requests`, an API key
 * from the environment, nothing else to install.
 */
export function experimentNotebook(exp: Experiment, baseUrl: string, columns: { name: string; dtype: string }[]): Record<string, unknown> {
  const md = (text: string) => ({ cell_type: 'markdown', metadata: {}, source: text.split('\n').map((l, i, a) => (i < a.length - 1 ? `${l}\n` : l)) });
  const code = (text: string) => ({ cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: text.split('\n').map((l, i, a) => (i < a.length - 1 ? `${l}\n` : l)) });
  const example = Object.fromEntries(columns.filter((c) => c.name !== exp.targetColumn).map((c) => [c.name, ['int64', 'float64'].includes(c.dtype) ? 0 : '']));
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    cells: [
      md(`# Experiment: ${exp.name}\n\nTarget \`${exp.targetColumn}\` (${exp.problemKind}), sort metric \`${String(exp.config.sort_metric)}\`.\nSet \`MLSVC_API_KEY\` to a key with the \`read:experiments\`, \`read:models\` and \`predict:models\` scopes.`),
      code(`import os, requests\nBASE = os.environ.get("MLSVC_URL", ${JSON.stringify(baseUrl)})\nH = {"Authorization": f"Bearer {os.environ['MLSVC_API_KEY']}"}\nEXPERIMENT_ID = ${JSON.stringify(exp.id)}`),
      md('## Leaderboard'),
      code(`exp = requests.get(f"{BASE}/api/experiments/{EXPERIMENT_ID}", headers=H).json()\nfor rank, m in enumerate(exp["models"], 1):\n    print(rank, m["name"], m["algo"], {k: v for k, v in m["metrics"].items() if isinstance(v, (int, float))})`),
      md('## Best model'),
      code(`best = exp["best_model_id"]\nexplain = requests.get(f"{BASE}/api/models/{best}/explain", headers=H).json()["explain"]\nexplain["variable_importance"][:10]`),
      md('## Predict'),
      code(`row = ${JSON.stringify(example, null, 1).replace(/\n/g, ' ')}\nrequests.post(f"{BASE}/api/models/{best}/predict", headers=H, json={"inputs": row, "options": {"include_contributions": True}}).json()`),
    ],
  };
}
