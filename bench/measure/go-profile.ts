// Reads a Go CPU profile (pprof's protobuf, gzipped as /debug/pprof/profile serves it) into its
// sampled stacks. pprof-format does the decoding; this turns its tables into function names.
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';

/** One sampled stack: its functions, innermost first, and the CPU seconds sampled on it. */
export interface SampledStack {
  functions: string[];
  cpuSeconds: number;
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** The profile's stacks; its CPU value is the sample type measured in nanoseconds. */
export function sampledStacks(file: Uint8Array): SampledStack[] {
  const gzipped = file[0] === GZIP_MAGIC[0] && file[1] === GZIP_MAGIC[1];
  const profile = Profile.decode(gzipped ? gunzipSync(file) : file);
  const text = (index: unknown): string => profile.stringTable.strings[Number(index)] ?? '';
  const cpuAt = profile.sampleType.findIndex((type) => text(type.unit) === 'nanoseconds');
  if (cpuAt === -1) throw new Error('not a CPU profile: no sample type is measured in nanoseconds');
  const names = new Map(profile.function.map((f) => [Number(f.id), text(f.name)]));
  // A location holds one line per function inlined at it, the innermost first, as the stack does.
  const frames = new Map(
    profile.location.map((l) => [
      Number(l.id),
      l.line.map((line) => names.get(Number(line.functionId)) ?? '?'),
    ]),
  );
  return profile.sample.map((sample) => ({
    functions: sample.locationId.flatMap((id) => frames.get(Number(id)) ?? []),
    cpuSeconds: Number(sample.value[cpuAt] ?? 0) / 1e9,
  }));
}
