export { momentsOf, RunningMoments, type Moments } from './moments';
export { msprt, sequentialTest, type ArmComparison, type MsprtResult, type SequentialDecision, type SequentialOptions, type SequentialResult } from './sequential';
