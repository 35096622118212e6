/** Every workflow the workers register. One file per job kind. */
export { projectExportWorkflow } from './project-export';
export { automlTrainWorkflow } from './automl-train';
export { datasetProfileWorkflow } from './dataset-profile';
export { driftComputeWorkflow } from './drift-compute';
export { reportGenerateWorkflow } from './report-generate';
export { privacyDetectWorkflow } from './privacy-detect';
export { privacyTransformWorkflow } from './privacy-transform';
export { synthgenTrainWorkflow } from './synthgen-train';
export { synthgenGenerateWorkflow } from './synthgen-generate';
