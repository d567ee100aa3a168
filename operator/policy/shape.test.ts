import { describe, expect, it } from 'vitest';
import { SHAPE_VALIDATORS } from './shape.js';

describe('the compiled shape validators', () => {
  // V8's optimising compilers take memory in proportion to a function's size: the Deployment
  // validator with the container schema inlined three times was ~280 KB of generated code and cost
  // ~10 MiB of compiler memory when it became hot, the operator's peak at 1,000 tenants.
  it('keep each generated function small by calling the container schema, not repeating it', () => {
    for (const [kind, validate] of Object.entries(SHAPE_VALIDATORS)) {
      expect(validate.toString().length, kind).toBeLessThan(100_000);
    }
  });
});
