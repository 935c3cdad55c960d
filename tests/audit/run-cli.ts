/** Runs the redis-ttl-audit CLI in-process with captured streams (shared by the audit tests). */
import { Readable } from 'node:stream';
import type { Findings, WrittenBy } from '../../audit/attribution.js';
import type { Growth } from '../../audit/baseline.js';
import { main } from '../../audit/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Pretend standard error (and standard input) is a terminal. */
  tty?: boolean;
  /** What standard input delivers (the --fix-ttl confirmation). */
  stdin?: string;
  env?: Record<string, string | undefined>;
}

export async function runCli(args: string[], opts: CliRunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]), { isTTY: opts.tty ?? false });
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: opts.tty ?? false },
    stdin,
    env: opts.env ?? {},
  });
  return { code, stdout, stderr };
}

/** runCli with `--format json`, parsed. */
export async function runJson(args: string[], opts: CliRunOptions = {}): Promise<{ code: number; report: Record<string, unknown> & JsonReport; stderr: string }> {
  const result = await runCli([...args, '--format', 'json'], opts);
  if (result.stdout === '') throw new Error(`no report (exit ${result.code}): ${result.stderr}`);
  return { code: result.code, report: JSON.parse(result.stdout) as Record<string, unknown> & JsonReport, stderr: result.stderr };
}

/** The parts of the JSON report the tests read. */
export interface JsonReport {
  nodes: { address: string; version: string; dbsize: number; maxmemory: number | null; maxmemoryPolicy: string | null; configError?: string; clusterEnabled: boolean }[];
  totals: { visited: number; keys: number; noTtl: number; vanished: number; changedType: number; memoryBytes: number | null; commands: number; elapsedMs: number };
  sample: null | {
    requested: number;
    stoppedEarly: boolean;
    visited: number;
    population: number;
    estimatedKeys: number;
    noTtlShare: { share: number; low: number; high: number };
    estimatedNoTtl: { value: number; low: number; high: number };
  };
  patterns: {
    pattern: string;
    keys: number;
    noTtl: number;
    noTtlShare: number;
    memoryBytes: number | null;
    ttl: Record<string, number>;
    largest: { key: string; bytes: number }[];
    idlest: { key: string; idleSeconds: number }[];
    estimatedKeys?: number;
    shape: string | null;
    writtenBy: WrittenBy[] | null;
    examples: string[];
    noTtlExamples: string[];
  }[];
  warnings: { code: string; node: string; message: string; patterns: string[] }[];
  notes: string[];
  violations: { pattern: string; keys: number; examples: string[] }[];
  fix: null | { seconds: number; candidates: number; changed: number; skipped: number; keys?: string[] };
  findings: Findings | null;
  growth: Growth | null;
}
