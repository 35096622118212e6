import { defineQuery } from '@temporalio/workflow';

export interface JobProgress {
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';
  step: string;
  progress: number;
}

/** Every job workflow answers this query with what it is doing now. */
export const progressQuery = defineQuery<JobProgress>('progress');
