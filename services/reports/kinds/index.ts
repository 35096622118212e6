import type { ReportKind } from '../../../entities';
import { deploymentKind } from './deployment';
import { experimentKind } from './experiment';
import type { ReportKindDef } from './kind';
import { modelKind } from './model';
import { projectKind } from './project';
import { synthgenKind } from './synthgen';

export type { BuiltReport, KindDeps, ReportKindDef } from './kind';

/** Every report kind, once: typed against the `ReportKind` union, so a kind without an entry does not compile. */
export const REPORT_KIND_DEFS: Record<ReportKind, ReportKindDef> = {
  experiment: experimentKind,
  model: modelKind,
  project: projectKind,
  deployment: deploymentKind,
  synthgen: synthgenKind,
};
