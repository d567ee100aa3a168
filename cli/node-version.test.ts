import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './node-version.js';

describe('nodeVersionProblem', () => {
  it.each(['v22.19.0', 'v22.23.5', 'v23.0.0', 'v24.22.3', 'v26.1.0'])('accepts %s', (version) => {
    expect(nodeVersionProblem(version)).toBeUndefined();
  });

  it.each(['v22.18.9', 'v22.0.0', 'v20.20.2', 'v18.20.8', 'v21.99.0', 'nonsense'])(
    'refuses %s in one line naming what it needs and what it found',
    (version) => {
      const problem = nodeVersionProblem(version);
      expect(problem).toContain('needs Node.js 22.19 or newer');
      expect(problem).toContain(`found ${version}`);
      expect(problem).not.toContain('\n');
    },
  );
});
