/**
 * The differential tester's comparator and minimizer: the analyzer's verdict on a generated script
 * next to the oracle's, and a delta-debugging shrink of each disagreement to the few statements
 * that still show it.
 */
import type { Redis } from 'ioredis';
import { analyzeLua, type LuaFinding } from '../../lua-lint/index.js';
import { count, normalize, render, type GeneratedScript, type Stmt } from './generate.js';
import { planRuns, runScript, type OracleVerdict, type RunPlan } from './oracle.js';

/** Rules whose findings say "this script can leave a key without TTL". */
const LEAK_RULES = new Set(['write-path-needs-ttl', 'keepttl-needs-existing-key']);
/** Rules that report a command whatever the path (GETSET, PERSIST): by design, not a leak claim. */
const BY_DESIGN_RULES = new Set(['no-getset', 'no-persist']);

/** What lua-lint says about a script. */
export type AnalyzerVerdict = 'clean' | 'reported' | 'by-design-only' | 'fatal';

/** How the two verdicts compare. */
export type Agreement =
  /** lua-lint calls it clean and it leaked with valid arguments. */
  | 'missed-leak'
  /** lua-lint calls it clean and it leaked only with ARGV <= 0 / not a number (ARGV assumed valid). */
  | 'missed-invalid-args'
  /** lua-lint reports a leak and no run leaked. */
  | 'false-alarm'
  /** lua-lint reports a leak that happened only with invalid arguments. */
  | 'reported-invalid-args'
  | 'agree'
  /** The analyzer or Redis could not read the script. */
  | 'unusable';

/** One script compared. */
export interface Comparison {
  script: GeneratedScript;
  source: string;
  verdict: AnalyzerVerdict;
  findings: LuaFinding[];
  oracle: OracleVerdict;
  agreement: Agreement;
}

/** The analyzer's verdict on a source. */
export function analyzerVerdict(source: string): { verdict: AnalyzerVerdict; findings: LuaFinding[] } {
  const findings = analyzeLua(source);
  if (findings.some((f) => f.fatal)) return { verdict: 'fatal', findings };
  if (findings.some((f) => f.ruleId && LEAK_RULES.has(f.ruleId))) return { verdict: 'reported', findings };
  if (findings.some((f) => f.ruleId && BY_DESIGN_RULES.has(f.ruleId))) return { verdict: 'by-design-only', findings };
  return { verdict: 'clean', findings };
}

function agreementOf(verdict: AnalyzerVerdict, oracle: OracleVerdict): Agreement {
  if (verdict === 'fatal' || oracle.loadError !== undefined) return 'unusable';
  const valid = oracle.leakedValid.size > 0;
  const invalid = oracle.leakedInvalidOnly.size > 0;
  if (verdict === 'clean') return valid ? 'missed-leak' : invalid ? 'missed-invalid-args' : 'agree';
  if (verdict === 'reported') return valid ? 'agree' : invalid ? 'reported-invalid-args' : 'false-alarm';
  return 'agree';
}

/** Runs the analyzer and the oracle on one script. */
export async function compareScript(redis: Redis, script: GeneratedScript, plans: readonly RunPlan[]): Promise<Comparison> {
  const source = render(script.body);
  const { verdict, findings } = analyzerVerdict(source);
  const oracle = await runScript(redis, script, plans);
  return { script, source, verdict, findings, oracle, agreement: agreementOf(verdict, oracle) };
}

/** Runs of a comparison: `runs` per script, seeded by the batch seed. */
export function plansFor(script: GeneratedScript, runs: number): RunPlan[] {
  return planRuns(script, runs, script.seed);
}

type Path = number[];

function paths(body: readonly Stmt[], prefix: Path = []): Path[] {
  const out: Path[] = [];
  body.forEach((s, i) => {
    out.push([...prefix, i]);
    if (s.kind === 'block') {
      out.push(...paths(s.body, [...prefix, i, 0]));
      if (s.orElse) out.push(...paths(s.orElse, [...prefix, i, 1]));
    }
  });
  return out;
}

/** `body` with the statement at `path` replaced by `replacement` (nothing = removed). */
function edit(body: readonly Stmt[], path: Path, replacement: readonly Stmt[]): Stmt[] {
  const [head, ...rest] = path;
  return body.flatMap((s, i) => {
    if (i !== head) return [s];
    if (rest.length === 0) return [...replacement];
    if (s.kind !== 'block') return [s];
    const [which, ...inner] = rest;
    return which === 0 ? [{ ...s, body: edit(s.body, inner, replacement) }] : [{ ...s, orElse: edit(s.orElse ?? [], inner, replacement) }];
  });
}

function at(body: readonly Stmt[], path: Path): Stmt | undefined {
  const [head, ...rest] = path;
  const s = body[head!];
  if (!s || rest.length === 0) return s;
  if (s.kind !== 'block') return undefined;
  const [which, ...inner] = rest;
  return at(which === 0 ? s.body : (s.orElse ?? []), inner);
}

/** Whether the script calls a generated helper (`h1(...)`) it no longer defines. */
function callsUndefinedHelper(source: string): boolean {
  for (const match of source.matchAll(/\b(h\d+)\(/g)) if (!source.includes(`local function ${match[1]}(`)) return true;
  return false;
}

/**
 * Shrinks a disagreement: removes statements (and unwraps blocks into their bodies) one at a time,
 * deepest and last first, keeping each change after which the same disagreement still shows, until
 * no single change keeps it (a 1-minimal script in the sense of delta debugging). A missed leak is
 * re-checked on the runs that leaked only; a false alarm on every run.
 *
 * @param maxChecks upper bound on oracle calls
 */
export async function minimize(redis: Redis, comparison: Comparison, runs: number, maxChecks = 200): Promise<Comparison> {
  const wanted = comparison.agreement;
  const plans =
    wanted === 'missed-leak'
      ? comparison.oracle.runs.filter((run) => run.leaked.length > 0 && run.plan.validArgs).map((run) => run.plan)
      : plansFor(comparison.script, runs);
  let best = comparison;
  let checks = 0;
  let changed = true;
  while (changed && checks < maxChecks) {
    changed = false;
    const candidates = paths(best.script.body).reverse();
    for (const path of candidates) {
      if (checks >= maxChecks) break;
      const target = at(best.script.body, path);
      if (!target) continue;
      const edits: Stmt[][] = [[]];
      if (target.kind === 'block' && target.head.startsWith('if ')) edits.push([...target.body], ...(target.orElse ? [[...target.orElse]] : []));
      for (const replacement of edits) {
        const body = normalize(edit(best.script.body, path, replacement));
        if (body.reduce((n, s) => n + count(s), 0) === 0 || callsUndefinedHelper(render(body))) continue;
        checks++;
        const next = await compareScript(redis, { ...best.script, body }, plans);
        if (next.agreement === wanted) {
          best = next;
          changed = true;
          break;
        }
      }
      if (changed) break;
    }
  }
  return best;
}
