// The order ready keys leave their lanes in: most urgent first, oldest first within a lane, each key
// once, and no lane with work passed over more than the fairness bound allows.
import { describe, expect, it } from 'vitest';
import { LANES, ReadyLanes, higherLane, type Lane } from './ready-lanes.js';

function drain(lanes: ReadyLanes): string[] {
  const order: string[] = [];
  for (let key = lanes.take(); key !== undefined; key = lanes.take()) order.push(key);
  return order;
}

function fill(lanes: ReadyLanes, lane: Lane, prefix: string, count: number): void {
  for (let i = 0; i < count; i += 1) lanes.add(`${prefix}${i}`, lane);
}

describe('ReadyLanes', () => {
  it('serves urgent, then event, then background keys, each lane in arrival order', () => {
    const lanes = new ReadyLanes(8);
    lanes.add('b1', 'background');
    lanes.add('e1', 'event');
    lanes.add('u1', 'urgent');
    lanes.add('b2', 'background');
    lanes.add('u2', 'urgent');
    expect(drain(lanes)).toEqual(['u1', 'u2', 'e1', 'b1', 'b2']);
  });

  it('keeps one entry per key, moving it up when asked in a higher lane and never down', () => {
    const lanes = new ReadyLanes(8);
    lanes.add('a', 'background');
    lanes.add('b', 'background');
    lanes.add('a', 'urgent');
    lanes.add('a', 'event');
    lanes.add('b', 'background');
    expect([lanes.size, lanes.laneOf('a'), lanes.laneOf('b')]).toEqual([2, 'urgent', 'background']);
    expect(drain(lanes)).toEqual(['a', 'b']);
  });

  it('gives a waiting background key a turn after `fairness` urgent ones', () => {
    const lanes = new ReadyLanes(3);
    fill(lanes, 'urgent', 'u', 7);
    fill(lanes, 'background', 'b', 3);
    expect(drain(lanes)).toEqual(['u0', 'u1', 'u2', 'b0', 'u3', 'u4', 'u5', 'b1', 'u6', 'b2']);
  });

  it('passes no lane with work over more than fairness + 1 times, whatever keeps coming above it', () => {
    const fairness = 4;
    const lanes = new ReadyLanes(fairness);
    fill(lanes, 'background', 'b', 50);
    fill(lanes, 'event', 'e', 50);
    const laneOfKey = (key: string): Lane => LANES.find((lane) => lane[0] === key[0])!;
    const passed: Record<Lane, number> = { urgent: 0, event: 0, background: 0 };
    const longest: Record<Lane, number> = { urgent: 0, event: 0, background: 0 };
    const served: string[] = [];
    for (let i = 0; i < 200; i += 1) {
      // A stream of urgent keys that never runs dry.
      lanes.add(`u${i}`, 'urgent');
      const waiting = LANES.filter((lane) =>
        [...Array(200).keys()].some((n) => lanes.laneOf(`${lane[0]}${n}`)),
      );
      const key = lanes.take()!;
      served.push(key);
      for (const lane of LANES) {
        passed[lane] = lane === laneOfKey(key) || !waiting.includes(lane) ? 0 : passed[lane] + 1;
        longest[lane] = Math.max(longest[lane], passed[lane]);
      }
    }
    expect([longest.event, longest.background]).toEqual([fairness + 1, fairness + 1]);
    // Both lower lanes progressed and the urgent lane still had most of the turns.
    const count = (lane: Lane): number => served.filter((key) => laneOfKey(key) === lane).length;
    expect(count('urgent')).toBeGreaterThan(count('event') + count('background'));
    expect(count('background')).toBeGreaterThanOrEqual(200 / (2 * (fairness + 2)));
  });

  it('does not carry a lane’s count over to work that comes after it ran dry', () => {
    const lanes = new ReadyLanes(2);
    lanes.add('b0', 'background');
    fill(lanes, 'urgent', 'u', 2);
    expect([lanes.take(), lanes.take(), lanes.take()]).toEqual(['u0', 'u1', 'b0']);
    fill(lanes, 'urgent', 'v', 3);
    expect(lanes.take()).toBe('v0');
    lanes.add('b1', 'background');
    expect(drain(lanes)).toEqual(['v1', 'v2', 'b1']);
  });

  it('takes only from the open lanes, and a closed lane keeps its place and its count', () => {
    const lanes = new ReadyLanes(2);
    lanes.add('b0', 'background');
    lanes.add('e0', 'event');
    fill(lanes, 'urgent', 'u', 2);
    expect([lanes.take(), lanes.take()]).toEqual(['u0', 'u1']);
    // Passed over twice: its turn is due, but a closed lane is not served, nor forgotten.
    expect(lanes.take(['urgent'])).toBeUndefined();
    lanes.add('u2', 'urgent');
    expect(lanes.next(['urgent'])).toEqual({ key: 'u2', lane: 'urgent' });
    lanes.add('u3', 'urgent');
    expect(drain(lanes)).toEqual(['e0', 'b0', 'u3']);
  });

  it('refuses a fairness bound below one', () => {
    expect(() => new ReadyLanes(0)).toThrow(RangeError);
  });

  it('names the more urgent of two lanes', () => {
    expect([higherLane('background', 'event'), higherLane('urgent', 'event')]).toEqual(['event', 'urgent']);
  });
});
