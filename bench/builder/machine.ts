/** What the benchmark ran on, written into every result: on a shared machine the load matters as much as the cores. */
import os from 'node:os';
// The limit the engine's connections run under, as the engine defines it (not exported by engine/data's index).
// eslint-disable-next-line no-restricted-imports
import { DUCKDB_MEMORY_LIMIT } from '../../engine/data/duck';

export interface MachineInfo {
  cpus: number;
  cpu_model: string;
  memory_gb: number;
  node: string;
  /** 1-, 5- and 15-minute load averages when the run began. */
  loadavg_at_start: number[];
  /** The DuckDB memory limit per connection the engine runs under. */
  duckdb_memory_limit: string;
  /** Niceness of this process (the benchmark runs at 19 on a shared machine). */
  nice: number;
}

export function machineInfo(): MachineInfo {
  return {
    cpus: os.availableParallelism(),
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round((os.totalmem() / 1e9) * 10) / 10,
    node: process.version,
    loadavg_at_start: os.loadavg().map((x) => Math.round(x * 100) / 100),
    duckdb_memory_limit: DUCKDB_MEMORY_LIMIT,
    nice: os.getPriority(),
  };
}
