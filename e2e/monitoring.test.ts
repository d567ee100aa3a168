// Monitoring (config/monitoring, and the chart's metrics.* values): the alert rules pass the pinned
// promtool's check and its unit tests, with a firing and a quiet case for every alert; the chart and
// kustomize carry the very same rules and dashboard; and every metric that a rule or a panel uses
// is on a live /metrics of the component it is asked of.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION } from '../api/tenant.js';
import { repoRoot } from '../harness/paths.js';
import { ensurePromtool } from '../harness/tools.js';
import { waitUntil } from '../harness/wait.js';
import { config } from './support/deploy.js';
import { DynamoProxy } from './support/dynamo-proxy.js';
import { envValue, uniqueName } from './support/env.js';
import { byKey, CHART, helmRefusal, renderChart, renderKustomize, type Manifest } from './support/helm.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  alertRules,
  componentValues,
  dashboard,
  metricComponents,
  metricNames,
  panelExpressions,
  promtool,
  readExposition,
  RULES_FILE,
  ruleGroups,
  ruleTests,
  withVariables,
  type Exposition,
} from './support/monitoring.js';
import { createTable, deleteSyncedTenants, putRow, readTenant, row, startSync } from './support/sync.js';

const RUNBOOK = 'https://github.com/landlord-dev/landlord/blob/main/docs/alerts.md';
const SEVERITIES = ['critical', 'warning', 'info'];
const rulesText = readFileSync(RULES_FILE, 'utf8');
const repoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

// A cold build of promtool takes minutes (it prints its progress); the cache makes it instant.
beforeAll(() => ensurePromtool((line) => console.log(line)), 1_200_000);

describe('the alert rules, by promtool', () => {
  it('promtool check rules: valid, and no lint finding', async () => {
    const { code, output } = await promtool('check', 'rules', '--lint=all', '--lint-fatal', RULES_FILE);
    expect(output).toContain(`SUCCESS: ${alertRules().length} rules found`);
    expect(output).not.toMatch(/warn|lint error|FAILED/i);
    expect(code).toBe(0);
  });

  it('promtool test rules: every case of landlord-rules.test.yaml passes', async () => {
    const { code, output } = await promtool('test', 'rules', 'landlord-rules.test.yaml');
    expect(output).toContain('SUCCESS');
    expect(output).not.toContain('FAILED');
    expect(code).toBe(0);
  });

  it('tests every alert with a case where it fires and one where it stays quiet', () => {
    const cases = ruleTests().flatMap((t) => t.alert_rule_test ?? []);
    for (const alert of new Set(alertRules().map((r) => r.alert))) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(mine.some((c) => (c.exp_alerts ?? []).length > 0)).toBe(true);
      expect(mine.some((c) => (c.exp_alerts ?? []).length === 0)).toBe(true);
    }
  });

  it('promtool fails a test that expects the wrong thing, so a pass means something', async () => {
    const dir = envValue('LANDLORD_E2E_RUN_DIR');
    await writeFile(join(dir, 'landlord-rules.yaml'), rulesText);
    const wrong = {
      rule_files: ['landlord-rules.yaml'],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [{ series: 'landlord_sync_invalid_rows{component="sync"}', values: '0x30' }],
          alert_rule_test: [
            { eval_time: '20m', alertname: 'LandlordInvalidRows', exp_alerts: [{ exp_labels: {} }] },
          ],
        },
      ],
    };
    await writeFile(join(dir, 'wrong.test.yaml'), JSON.stringify(wrong));
    const { code, output } = await promtool('test', 'rules', join(dir, 'wrong.test.yaml'));
    expect(output).toContain('FAILED');
    expect(code).not.toBe(0);
  });

  it('gives every alert a severity, a summary, a description and its section of docs/alerts.md', () => {
    const runbook = repoFile('docs/alerts.md');
    for (const rule of alertRules()) {
      expect(SEVERITIES).toContain(rule.labels.severity);
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      expect(rule.annotations.description, rule.alert).toBeTruthy();
      expect(rule.annotations.runbook_url).toBe(`${RUNBOOK}#${rule.alert.toLowerCase()}`);
      expect(runbook).toMatch(new RegExp(`^## ${rule.alert}$`, 'm'));
    }
  });
});

describe('the dashboard', () => {
  const board = dashboard();

  it('is a Grafana dashboard with datasource, namespace and component variables', () => {
    expect(board).toMatchObject({ uid: 'landlord', title: 'landlord' });
    expect(board.schemaVersion).toBeGreaterThanOrEqual(39);
    const variables = Object.fromEntries(board.templating.list.map((v) => [v.name, v]));
    expect(variables.datasource).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(variables.namespace).toMatchObject({ type: 'query' });
    expect(variables.component).toMatchObject({ type: 'query', allValue: 'operator|sync' });
  });

  it('has panels with unique ids, on the grid without overlap, each query on the chosen data source', () => {
    const ids = board.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const taken = new Set<string>();
    for (const { gridPos: g, title } of board.panels) {
      expect(g.x + g.w, title).toBeLessThanOrEqual(24);
      for (let x = g.x; x < g.x + g.w; x++)
        for (let y = g.y; y < g.y + g.h; y++) {
          expect(taken.has(`${x},${y}`), `${title} overlaps at ${x},${y}`).toBe(false);
          taken.add(`${x},${y}`);
        }
    }
    const targets = board.panels.flatMap((p) => p.targets ?? []);
    expect(targets.length).toBeGreaterThan(15);
    for (const t of targets) expect(t.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
  });

  it('has the panels an on-call engineer needs', () => {
    const used = metricNames(panelExpressions(board).join('\n'));
    for (const name of [
      'landlord_tenants',
      'landlord_reconcile_total',
      'landlord_reconcile_duration_seconds',
      'landlord_queue_depth',
      'landlord_queue_in_flight',
      'landlord_sync_stream_lag_seconds',
      'landlord_sync_scans_total',
      'landlord_sync_rows_scanned_total',
      'landlord_sync_deletions_held_back_total',
      'landlord_sync_invalid_rows',
      'landlord_sync_writes_total',
      'landlord_dynamodb_retries_total',
      'landlord_api_requests_total',
      'landlord_api_request_duration_seconds',
      'landlord_leader',
      'landlord_process_resident_memory_bytes',
      'landlord_nodejs_heap_size_used_bytes',
      'landlord_nodejs_eventloop_lag_p99_seconds',
    ])
      expect(used).toContain(name);
  });

  it('queries only valid PromQL (promtool parses each panel query as a recording rule)', async () => {
    const rules = panelExpressions(board).map((expr, i) => ({
      record: `landlord_dashboard:query_${i}`,
      expr: withVariables(expr),
    }));
    const file = join(envValue('LANDLORD_E2E_RUN_DIR'), 'dashboard-queries.yaml');
    await writeFile(file, JSON.stringify({ groups: [{ name: 'dashboard', rules }] }));
    const { code, output } = await promtool('check', 'rules', file);
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(code).toBe(0);
  });
});

describe('one source for the chart and kustomize', () => {
  it("the chart's copies are config/monitoring's, byte for byte", () => {
    for (const file of ['landlord-rules.yaml', 'landlord-dashboard.json']) {
      const copy = repoFile(`charts/landlord/files/${file}`);
      expect(copy, `run: cp config/monitoring/${file} charts/landlord/files/`).toBe(
        repoFile(`config/monitoring/${file}`),
      );
    }
  });

  it("config/monitoring/prometheusrule.yaml's spec is landlord-rules.yaml", () => {
    const rule = load(repoFile('config/monitoring/prometheusrule.yaml')) as { spec: unknown };
    expect(rule.spec, 'indent landlord-rules.yaml from `groups:` on under `spec:`').toEqual({
      groups: ruleGroups(),
    });
  });

  it('the chart, with every metrics.* on, renders exactly what config/monitoring does', async () => {
    const chart = await renderChart(
      ...['--set', 'metrics.serviceMonitor.enabled=true'],
      ...['--set', 'metrics.prometheusRule.enabled=true'],
      ...['--set', 'metrics.grafanaDashboard.enabled=true'],
    );
    const monitoring = chart.filter(
      (o) =>
        ['ServiceMonitor', 'PrometheusRule'].includes(o.kind) || o.metadata.name === 'landlord-dashboard',
    );
    expect(monitoring).toHaveLength(4);
    const kustomize = await renderKustomize(config('monitoring'));
    expect(Object.keys(byKey(monitoring)).sort()).toEqual(Object.keys(byKey(kustomize)).sort());
    expect(byKey(monitoring)).toEqual(byKey(kustomize));
  });
});

describe('the chart: PrometheusRule and dashboard behind values', () => {
  const ofKind = (objects: Manifest[], kind: string) => objects.filter((o) => o.kind === kind);

  it('renders neither by default', async () => {
    const objects = await renderChart();
    expect(ofKind(objects, 'PrometheusRule')).toEqual([]);
    expect(objects.filter((o) => o.metadata.labels?.grafana_dashboard)).toEqual([]);
  });

  it('renders the PrometheusRule with the groups of landlord-rules.yaml, with the labels asked for', async () => {
    const [plain] = ofKind(
      await renderChart('--set', 'metrics.prometheusRule.enabled=true'),
      'PrometheusRule',
    );
    expect(plain).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', metadata: { name: 'landlord' } });
    expect(plain!.spec).toEqual({ groups: ruleGroups() });
    const [labelled] = ofKind(
      await renderChart(
        ...['--set', 'metrics.prometheusRule.enabled=true'],
        ...['--set', 'metrics.prometheusRule.labels.release=kube-prometheus-stack'],
        ...['--set', 'metrics.prometheusRule.alertLabels.team=platform'],
      ),
      'PrometheusRule',
    );
    expect(labelled!.metadata.labels).toEqual({
      'app.kubernetes.io/name': 'landlord',
      release: 'kube-prometheus-stack',
    });
    const groups = (labelled!.spec as { groups: { rules: { labels: Record<string, string> }[] }[] }).groups;
    const expected = ruleGroups().map((g) => ({
      ...g,
      rules: g.rules.map((r) => ({ ...r, labels: { ...r.labels, team: 'platform' } })),
    }));
    expect(groups).toEqual(expected);
  });

  it("renders the dashboard in a ConfigMap for Grafana's sidecar, where it is asked for", async () => {
    const objects = await renderChart(
      ...['--set', 'metrics.grafanaDashboard.enabled=true'],
      ...['--set', 'metrics.grafanaDashboard.namespace=grafana'],
      ...['--set', 'metrics.grafanaDashboard.annotations.grafana_folder=Platform'],
    );
    const [map] = objects.filter((o) => o.metadata.name === 'landlord-dashboard');
    expect(map).toMatchObject({
      kind: 'ConfigMap',
      metadata: {
        namespace: 'grafana',
        labels: { grafana_dashboard: '1' },
        annotations: { grafana_folder: 'Platform' },
      },
    });
    expect(JSON.parse((map!.data as Record<string, string>)['landlord.json']!)).toEqual(dashboard());
  });

  const bad = [
    { values: 'metrics.prometheusRule.enabled=yes', because: 'an enabled that is not a boolean' },
    { values: 'metrics.prometheusRule.alertLabels.team=7', because: 'an alert label that is not a string' },
    { values: 'metrics.prometheusRule.interval=30s', because: 'an unknown key' },
    {
      values: 'metrics.grafanaDashboard.labels.grafana_dashboard=1',
      because: 'a label that is not a string',
    },
    {
      values: 'metrics.grafanaDashboard.namespace=Grafana_NS',
      because: 'a namespace that is not a DNS label',
    },
  ];
  it.each(bad)('refuses $because ($values)', async ({ values }) => {
    const refusal = await helmRefusal('template', 'landlord', CHART, '--set', values);
    expect(refusal).toContain("values don't meet the specifications of the schema");
  });
});

describe('every metric the rules and the dashboard use, on a live /metrics', () => {
  const table = uniqueName('monitoring');
  let proxy: DynamoProxy;
  let sync: LandlordProcess;
  let operator: LandlordProcess;
  const scraped: Record<string, Exposition> = {};

  const hasSeries = async (p: LandlordProcess, name: string) =>
    readExposition(await p.metrics()).sampled.has(name);

  // Both components run, and do what makes each labelled metric show a series: sync scans a table
  // with a valid and an invalid row, writes a Tenant and retries a throttled DynamoDB call; the
  // operator makes the Tenant Ready and counts Tenants by condition. (A metric without labels,
  // such as the stream lag, shows its series from the start.)
  beforeAll(async () => {
    await createTable(table);
    const [valid, invalid] = [uniqueName('mon'), uniqueName('mon')];
    await putRow(table, row(valid));
    await putRow(table, { ...row(invalid), spec: '{"not json' });
    proxy = await DynamoProxy.start(envValue('DYNAMODB_ENDPOINT'));
    sync = startSync(table, { DYNAMODB_ENDPOINT: proxy.url, LANDLORD_SYNC_RESYNC_SECONDS: '5' });
    operator = startLandlord('operator', componentEnv());
    await Promise.all([sync.ready(), operator.ready()]);
    await waitUntil(
      `Tenant ${valid} Ready`,
      async () => {
        const ready = (await readTenant(valid))?.status?.conditions?.find((c) => c.type === CONDITION.ready);
        return ready?.status === 'True';
      },
      { timeoutMs: 120_000 },
    );
    proxy.throttle(0.5);
    await waitUntil(
      'sync to retry a throttled DynamoDB call',
      async () => metricValue(await sync.metrics(), 'landlord_dynamodb_retries_total') > 0,
      { timeoutMs: 60_000 },
    );
    proxy.throttle(0);
    await waitUntil('the operator to count Tenants', () => hasSeries(operator, 'landlord_tenants'), {
      timeoutMs: 30_000,
    });
    scraped.sync = readExposition(await sync.metrics());
    scraped.operator = readExposition(await operator.metrics());
  }, 300_000);

  afterAll(async () => {
    expect(await sync?.stop()).toBe(0);
    expect(await operator?.stop()).toBe(0);
    await proxy?.close();
    await deleteSyncedTenants(table);
  });

  // PromQL asks each metric of the components its selectors choose; a description that names a
  // metric (as where to look next) asks only that some component has it.
  const sources = [
    {
      what: 'the alert rules',
      queries: () => alertRules().map((r) => r.expr),
      mentions: () => alertRules().flatMap((r) => Object.values(r.annotations)),
    },
    {
      what: 'the dashboard',
      queries: () => panelExpressions(),
      mentions: () => [dashboard().description ?? '', ...dashboard().panels.map((p) => p.description ?? '')],
    },
  ];

  const missingOn = (name: string, component: string): boolean =>
    !scraped[component]!.declared.has(name) || !scraped[component]!.sampled.has(name);

  it.each(sources)(
    '$what: every metric queried is on the /metrics of each component asked',
    ({ queries }) => {
      const asked = metricComponents(queries().join('\n'));
      expect(asked.size).toBeGreaterThan(5);
      const missing: string[] = [];
      for (const [name, components] of asked)
        for (const component of components)
          if (missingOn(name, component)) missing.push(`${name} on ${component}`);
      expect(missing).toEqual([]);
    },
  );

  it.each(sources)('$what: every metric a description names is on a live /metrics', ({ mentions }) => {
    const named = metricNames(mentions().join('\n'));
    expect(named.filter((name) => missingOn(name, 'sync') && missingOn(name, 'operator'))).toEqual([]);
  });

  it.each(sources)('$what: select only component values that exist', ({ queries }) => {
    const live = new Set([...scraped.sync!.components, ...scraped.operator!.components]);
    expect([...live].sort()).toEqual(['operator', 'sync']);
    const values = componentValues(queries().join('\n'));
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(live).toContain(value);
  });
});
