import { Experiment, Model } from '../../../entities';
import { AutoMLConfig, metricKey } from '../../../engine/automl';
import type { Block, Section } from '../../../engine/reports';
import { dataSummarySection } from '../data-sections';
import { fmt, importanceBlock, modelSections, parametersBlock, shapBlock } from '../model-sections';
import { HYPERPARAMETERS_READING, importanceReading } from '../readings';
import { inProject, KindContext, ReportKindDef } from './kind';

/** One trained model: its data, metrics at the operating threshold, curves, importance, SHAP and parameters. */
export const modelKind: ReportKindDef = {
  kind: 'model',
  notFound: 'Model not found',
  exists: (ds, projectId, id) => inProject(ds, 'models', projectId, id),

  async build(ctx: KindContext) {
    const { ds, options: o } = ctx;
    const model = await ds.getRepository(Model).findOneByOrFail({ id: ctx.entityId });
    const exp = await ds.getRepository(Experiment).findOneBy({ id: model.experimentId });
    const sections: Section[] = [];
    const warnings = exp?.warnings ?? [];
    if (o.include_data_summary && exp) sections.push(await dataSummarySection(ds, exp.datasetVersionId, exp.targetColumn, 'data-summary', ctx.profileVersion));
    const sortKey = exp ? metricKey((exp.config as AutoMLConfig).sort_metric) : null;
    sections.push(...modelSections(model, o, 'model', { sortKey, warnings }));
    if (o.include_feature_importance) {
      const blocks = [o.include_charts ? importanceBlock(model) : null, o.include_charts ? shapBlock(model) : null].filter((b): b is Block => b !== null);
      if (!o.include_charts) blocks.push(importanceTable(model));
      const features = ((model.explain.variable_importance ?? []) as { variable: string }[]).map((v) => v.variable);
      if (blocks.length) sections.push({ id: 'importance', title: 'Variable importance and SHAP summary', reading: importanceReading(features, warnings), blocks });
    }
    if (o.include_hyperparameters) {
      const params = parametersBlock(model);
      sections.push({ id: 'parameters', title: 'Parameters (default and actual)', reading: HYPERPARAMETERS_READING, blocks: [params ?? { type: 'note', text: 'No parameters were recorded.' }] });
    }
    return {
      entityName: model.name,
      meta: [
        ['Model', `${model.name} (${model.algo})`],
        ['Experiment', exp?.name ?? '(deleted)'],
        ['Target', exp ? `${exp.targetColumn} (${exp.problemKind})` : '-'],
        ['Training time', `${fmt(model.trainingTimeMs / 1000, 2)} s`],
      ],
      sections,
      facts: { model: model.name, algo: model.algo, experiment: exp?.name ?? null, metrics: Object.fromEntries(Object.entries(model.metrics).filter(([, v]) => typeof v === 'number')) },
    };
  },
};

function importanceTable(m: Model): Block {
  const vi = (m.explain.variable_importance ?? []) as { variable: string; percentage: number }[];
  return { type: 'table', columns: ['feature', 'share of importance'], rows: vi.slice(0, 30).map((v) => [v.variable, fmt(v.percentage)]) };
}
