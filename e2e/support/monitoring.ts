// config/monitoring as the tests read it: the alert rules, their promtool unit tests and the Grafana
// dashboard, the pinned promtool (harness/promtool) to run on them, and the metric names that the
// rules and panels use, to look up on a live /metrics.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { repoRoot } from '../../harness/paths.js';
import { ensurePromtool } from '../../harness/tools.js';

const run = promisify(execFile);

export const MONITORING = join(repoRoot, 'config', 'monitoring');
export const RULES_FILE = join(MONITORING, 'landlord-rules.yaml');
export const RULES_TEST_FILE = join(MONITORING, 'landlord-rules.test.yaml');
export const DASHBOARD_FILE = join(MONITORING, 'landlord-dashboard.json');

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
export interface RuleGroup {
  name: string;
  rules: AlertRule[];
}

export const ruleGroups = (text = readFileSync(RULES_FILE, 'utf8')): RuleGroup[] =>
  (load(text) as { groups: RuleGroup[] }).groups;

export const alertRules = (): AlertRule[] => ruleGroups().flatMap((g) => g.rules);

export interface AlertTestCase {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}
export interface RuleTest {
  name: string;
  alert_rule_test?: AlertTestCase[];
}

export const ruleTests = (): RuleTest[] =>
  (load(readFileSync(RULES_TEST_FILE, 'utf8')) as { tests: RuleTest[] }).tests;

export interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { type: string; uid: string };
  targets?: { expr: string; datasource: { type: string; uid: string }; refId: string }[];
}
export interface Dashboard {
  title: string;
  uid: string;
  description?: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: unknown; allValue?: string }[] };
}

export const dashboard = (): Dashboard => JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;

/** Every PromQL expression of the dashboard's panels. */
export const panelExpressions = (d: Dashboard = dashboard()): string[] =>
  d.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

/**
 * A dashboard expression as Prometheus would get it from Grafana: the variables replaced by what
 * "All" selects (the range interval by a fixed one).
 */
export function withVariables(expr: string): string {
  return expr
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$namespace', '.*')
    .replaceAll('$component', 'operator|sync');
}

export interface PromtoolResult {
  code: number;
  output: string;
}

/** Runs the pinned promtool in config/monitoring; a failure is a result, not an exception. */
export async function promtool(...args: string[]): Promise<PromtoolResult> {
  try {
    const { stdout, stderr } = await run(await ensurePromtool(), args, { cwd: MONITORING });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const { code, stdout, stderr } = err as { code?: number; stdout?: string; stderr?: string };
    return { code: code ?? -1, output: `${stdout ?? ''}${stderr ?? ''}${String(err)}` };
  }
}

/** A histogram's series name its family's: what `# TYPE` declares. */
const family = (name: string): string => name.replace(/_(bucket|sum|count)$/, '');

/** Every landlord metric named in `text` (PromQL, or a description naming one). */
export const metricNames = (text: string): string[] => [
  ...new Set([...text.matchAll(/\blandlord_[a-z0-9_]+/g)].map(([name]) => family(name))),
];

const COMPONENTS = ['operator', 'sync'];

/**
 * Which components each landlord metric in `text` is asked of: the `component` values of its
 * selectors, both when a selector (or a mention without one) does not choose.
 */
export function metricComponents(text: string): Map<string, Set<string>> {
  const asked = new Map<string, Set<string>>();
  for (const match of text.matchAll(/\b(landlord_[a-z0-9_]+)(\{[^}]*\})?/g)) {
    const name = family(match[1]!);
    const chosen = /component=~?"([^"$]+)"/.exec(match[2] ?? '');
    const components = chosen ? chosen[1]!.split('|') : COMPONENTS;
    const set = asked.get(name) ?? new Set<string>();
    components.forEach((c) => set.add(c));
    asked.set(name, set);
  }
  return asked;
}

/** The literal `component` values that selectors in `text` match. */
export const componentValues = (text: string): string[] => [
  ...new Set([...text.matchAll(/component=~?"([^"$]+)"/g)].flatMap(([, values]) => values!.split('|'))),
];

export interface Exposition {
  /** Families declared by `# TYPE` lines. */
  declared: Set<string>;
  /** Families with at least one sample. */
  sampled: Set<string>;
  /** The values of the `component` label on the samples. */
  components: Set<string>;
}

/** What a Prometheus text exposition (a scrape of /metrics) holds. */
export function readExposition(text: string): Exposition {
  const exposition: Exposition = { declared: new Set(), sampled: new Set(), components: new Set() };
  for (const line of text.split('\n')) {
    const declared = /^# TYPE (\S+) /.exec(line);
    if (declared) exposition.declared.add(declared[1]!);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (line.startsWith('#') || !sample) continue;
    exposition.sampled.add(family(sample[1]!));
    const component = /component="([^"]*)"/.exec(line);
    if (component) exposition.components.add(component[1]!);
  }
  return exposition;
}
