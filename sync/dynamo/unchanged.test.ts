import { describe, expect, it } from 'vitest';
import { unchangedCondition } from './unchanged.js';

describe('unchangedCondition', () => {
  it('holds each content attribute to the value read, or to its absence', () => {
    const condition = unchangedCondition({
      name: { S: 'acme' },
      spec: { S: '{}' },
      customizations: { L: [] },
      deleted: { BOOL: false },
      changedBy: { S: 'bob' },
    });
    expect(condition.expression).toBe(
      'attribute_exists(#name) AND #spec = :was_spec AND #customizations = :was_customizations AND ' +
        'attribute_not_exists(#state) AND attribute_not_exists(#class) AND attribute_not_exists(#hosts) AND ' +
        '#deleted = :was_deleted AND ' +
        'attribute_not_exists(#cluster)',
    );
    expect(condition.values).toEqual({
      ':was_spec': { S: '{}' },
      ':was_customizations': { L: [] },
      ':was_deleted': { BOOL: false },
    });
    // Who changed the row is not its content: a note written meanwhile stops no guarded write.
    expect(Object.values(condition.names)).not.toContain('changedBy');
  });
});
