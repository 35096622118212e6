import type { ProblemKind } from './frame';
import type { FeatureSpec } from './model';

/** What every serialized model carries: its problem kind, class labels and input features. */
export interface ModelHeaderJSON {
  kind: ProblemKind;
  classes: string[];
  features: FeatureSpec[];
}

/** Models that score straight from their serialized JSON (GLM, DeepLearning, StackedEnsemble). */
export abstract class JsonBackedModel<J extends ModelHeaderJSON> {
  constructor(readonly json: J) {}

  get kind(): ProblemKind {
    return this.json.kind;
  }
  get classes(): string[] {
    return this.json.classes;
  }
  get features(): FeatureSpec[] {
    return this.json.features;
  }
}
