// The egress fence of an Isolated namespace, as pure decisions: which CIDRs parse, which ipBlocks
// get the metadata endpoint added to their except, which classes are refused, and the rules.
import { describe, expect, it } from 'vitest';
import { resolvedClass, type EgressRule } from '../../api/tenantclass.js';
import { cidrContains, egressProblem, egressRules, fencedIpBlock, parseCidr } from './egress.js';

const classWith = (allowEgressTo: EgressRule[]): ReturnType<typeof resolvedClass> =>
  resolvedClass('open', 1, { allowEgressTo });

describe('parseCidr', () => {
  it.each([
    ['10.0.0.0/8', { address: '10.0.0.0', prefix: 8, family: 'ipv4' }],
    ['0.0.0.0/0', { address: '0.0.0.0', prefix: 0, family: 'ipv4' }],
    ['::/0', { address: '::', prefix: 0, family: 'ipv6' }],
    ['fd00:ec2::254/128', { address: 'fd00:ec2::254', prefix: 128, family: 'ipv6' }],
  ])('%s', (text, parsed) => expect(parseCidr(text)).toEqual(parsed));

  it.each(['10.0.0.0', '10.0.0.0/33', '::/129', '10.0.0.0/8/8', 'example.com/8', '10.0.0.0/-1', ''])(
    '%j is not a CIDR',
    (text) => expect(parseCidr(text)).toBeUndefined(),
  );
});

describe('cidrContains', () => {
  it.each<[string, string, 'ipv4' | 'ipv6', boolean]>([
    ['169.254.0.0/16', '169.254.169.254', 'ipv4', true],
    ['169.254.169.255/31', '169.254.169.254', 'ipv4', true],
    ['169.254.169.0/25', '169.254.169.254', 'ipv4', false],
    ['10.0.0.0/8', '169.254.169.254', 'ipv4', false],
    ['::/0', 'fd00:ec2::254', 'ipv6', true],
    ['0.0.0.0/0', 'fd00:ec2::254', 'ipv6', false],
  ])('%s holds %s: %s', (cidr, ip, family, holds) =>
    expect(cidrContains(parseCidr(cidr)!, ip, family)).toBe(holds),
  );
});

describe('fencedIpBlock', () => {
  it.each([
    ['0.0.0.0/0', undefined, ['169.254.169.254/32']],
    ['169.254.0.0/16', ['169.254.1.0/24'], ['169.254.1.0/24', '169.254.169.254/32']],
    ['::/0', undefined, ['fd00:ec2::254/128']],
    ['fd00::/8', ['fd00:1::/32'], ['fd00:1::/32', 'fd00:ec2::254/128']],
    ['0.0.0.0/0', ['169.254.0.0/16'], ['169.254.0.0/16']],
    ['203.0.113.0/24', undefined, undefined],
    ['10.0.0.0/8', ['10.1.0.0/16'], ['10.1.0.0/16']],
  ])('%s except %j → except %j', (cidr, except, fenced) => {
    const block = except === undefined ? { cidr } : { cidr, except };
    expect(fencedIpBlock(block)).toEqual(fenced === undefined ? { cidr } : { cidr, except: fenced });
  });

  it('answers the same for a CIDR seen before, and after more CIDRs than it remembers', () => {
    const first = fencedIpBlock({ cidr: '169.254.0.0/16' });
    for (let i = 0; i < 300; i++) fencedIpBlock({ cidr: `10.${i >> 8}.${i & 255}.0/24` });
    const again = fencedIpBlock({ cidr: '169.254.0.0/16' });
    expect(again).toEqual({ cidr: '169.254.0.0/16', except: ['169.254.169.254/32'] });
    expect(again).toEqual(first);
    // Each answer is the caller's own: changing one leaves the next alone.
    again.except!.push('192.0.2.0/24');
    expect(fencedIpBlock({ cidr: '169.254.0.0/16' }).except).toEqual(['169.254.169.254/32']);
  });
});

describe('egressProblem', () => {
  it.each<[string, EgressRule[], string]>([
    [
      'the IPv4 endpoint alone',
      [{ ipBlock: { cidr: '169.254.169.254/32' } }],
      'allowEgressTo[0].ipBlock.cidr',
    ],
    [
      'the IPv6 endpoint alone, as the second entry',
      [{ namespaceSelector: { matchLabels: { a: 'b' } } }, { ipBlock: { cidr: 'fd00:ec2::254/128' } }],
      'allowEgressTo[1].ipBlock.cidr',
    ],
    ['a CIDR that is not one', [{ ipBlock: { cidr: '10.0.0.0/40' } }], 'is not a CIDR'],
    ['an except that is not a CIDR', [{ ipBlock: { cidr: '10.0.0.0/8', except: ['x'] } }], 'except[0]'],
  ])('finds %s, naming the entry', (_name, rules, says) => {
    const problem = egressProblem(classWith(rules));
    expect(problem).toBeDefined();
    expect(`${problem?.path}: ${problem?.text}`).toContain(says);
  });

  it('accepts the internet, a namespace, and no entries at all', () => {
    const rules: EgressRule[] = [
      { ipBlock: { cidr: '0.0.0.0/0' } },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ];
    expect(egressProblem(classWith(rules))).toBeUndefined();
    expect(egressProblem(classWith([]))).toBeUndefined();
  });
});

describe('egressRules', () => {
  const OWN = { to: [{ podSelector: {} }] };
  const DNS = {
    to: [
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
        podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
      },
    ],
    ports: [
      { protocol: 'UDP', port: 53 },
      { protocol: 'TCP', port: 53 },
    ],
  };

  it('allows only its own namespace and DNS by default', () => {
    expect(egressRules(resolvedClass('standard', 1))).toEqual([OWN, DNS]);
  });

  it("adds the class's entries, fenced, with their ports; an entry naming no destination adds nothing", () => {
    const monitoring = { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } };
    const rules = egressRules(
      classWith([
        { ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] }, ports: [{ protocol: 'TCP', port: 443 }] },
        { namespaceSelector: monitoring, ipBlock: { cidr: '192.0.2.0/24' } },
        { namespaceSelector: {}, ports: [{ port: 80 }] },
      ]),
    );
    expect(rules).toEqual([
      OWN,
      DNS,
      {
        to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '169.254.169.254/32'] } }],
        ports: [{ protocol: 'TCP', port: 443 }],
      },
      { to: [{ namespaceSelector: monitoring }, { ipBlock: { cidr: '192.0.2.0/24' } }] },
    ]);
  });
});
