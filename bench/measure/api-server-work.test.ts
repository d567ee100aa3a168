import { gzipSync } from 'node:zlib';
import {
  Function as ProfileFunction,
  Line,
  Location,
  Profile,
  Sample,
  StringTable,
  ValueType,
} from 'pprof-format';
import { describe, expect, it } from 'vitest';
import { cpuByWork, REST, workOf } from './api-server-work.js';
import { sampledStacks } from './go-profile.js';

/** A Go CPU profile as /debug/pprof/profile serves it: each stack innermost first, its CPU in ns. */
function goProfile(stacks: { functions: string[][]; nanoseconds: number }[]): Uint8Array {
  const strings = new StringTable();
  const functions = new Map<string, ProfileFunction>();
  const locations: Location[] = [];
  const functionId = (name: string): number => {
    if (!functions.has(name))
      functions.set(name, new ProfileFunction({ id: functions.size + 1, name: strings.dedup(name) }));
    return Number(functions.get(name)!.id);
  };
  // Each location is a frame with its inlined functions, innermost first.
  const locationId = (inlined: string[]): number => {
    const line = inlined.map((name) => new Line({ functionId: functionId(name) }));
    locations.push(new Location({ id: locations.length + 1, line }));
    return locations.length;
  };
  const sample = stacks.map(
    (stack) => new Sample({ locationId: stack.functions.map(locationId), value: [1, stack.nanoseconds] }),
  );
  const sampleType = [
    new ValueType({ type: strings.dedup('samples'), unit: strings.dedup('count') }),
    new ValueType({ type: strings.dedup('cpu'), unit: strings.dedup('nanoseconds') }),
  ];
  const profile = new Profile({
    sampleType,
    sample,
    location: locations,
    function: [...functions.values()],
    stringTable: strings,
  });
  return gzipSync(profile.encode());
}

const STATUS_APPLY = [
  'k8s.io/apiserver/pkg/endpoints/handlers.(*patcher).patchResource',
  'k8s.io/apiserver/pkg/endpoints/handlers.PatchResource.func1',
  'k8s.io/apiextensions-apiserver/pkg/apiserver.(*crdHandler).ServeHTTP',
];
const POD_CREATE = [
  'k8s.io/apiserver/pkg/endpoints/handlers.createHandler.func1',
  'k8s.io/apiserver/pkg/endpoints/handlers.CreateResource.func1',
];

describe('the API server work of a stack', () => {
  it('puts a stack in the first group it matches: a collection before any handler', () => {
    expect(workOf(['runtime.scanobject', 'runtime.gcBgMarkWorker'])).toBe("Go's garbage collector");
    expect(workOf(['encoding/json.Marshal', ...STATUS_APPLY])).toBe(
      'custom resource patches and status updates',
    );
    expect(workOf(POD_CREATE)).toBe('creates of other kinds');
    expect(workOf(['k8s.io/apiserver/pkg/storage/etcd3.(*watchChan).transform'])).toBe(
      "decoding its etcd watch's events",
    );
    expect(workOf(['runtime.futex', 'runtime.schedule'])).toBe(REST);
  });

  it('tells a custom resource create from a built-in one by the apiextensions handler', () => {
    const crd = 'k8s.io/apiextensions-apiserver/pkg/apiserver.(*crdHandler).ServeHTTP';
    expect(workOf([...POD_CREATE, crd])).toBe('custom resource creates');
  });
});

describe('a kube-apiserver CPU profile read and grouped', () => {
  it('reads each stack with its inlined functions and its CPU, and sums the seconds per group', () => {
    const file = goProfile([
      { functions: [['runtime.scanobject'], ['runtime.gcBgMarkWorker']], nanoseconds: 2e9 },
      // The patch handler inlined into the apiextensions handler's frame: still found on the stack.
      { functions: [[STATUS_APPLY[0]!], [STATUS_APPLY[1]!, STATUS_APPLY[2]!]], nanoseconds: 3e9 },
      { functions: [[STATUS_APPLY[0]!], [STATUS_APPLY[1]!, STATUS_APPLY[2]!]], nanoseconds: 1.5e9 },
      { functions: [['runtime.futex']], nanoseconds: 0.5e9 },
    ]);
    const stacks = sampledStacks(file);
    expect(stacks[1]!.functions).toEqual(STATUS_APPLY);
    expect(cpuByWork(stacks)).toEqual(
      new Map([
        ["Go's garbage collector", 2],
        ['custom resource patches and status updates', 4.5],
        [REST, 0.5],
      ]),
    );
  });

  it('refuses a profile that measures no CPU time', () => {
    const strings = new StringTable();
    const sampleType = [new ValueType({ type: strings.dedup('inuse_space'), unit: strings.dedup('bytes') })];
    const heap = new Profile({ sampleType, stringTable: strings }).encode();
    expect(() => sampledStacks(heap)).toThrow(/not a CPU profile/);
  });
});
