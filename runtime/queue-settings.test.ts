import { describe, expect, it } from 'vitest';
import { queueOptions, queueSettings, retrySettings } from './queue-settings.js';

describe('queue settings', () => {
  it('names every variable after the component and defaults the longest retry to 300 s', () => {
    const specs = queueSettings('PURGER', {
      resync: 'looked at',
      failing: 'a failing purge',
      retryBaseMs: 1000,
    });
    expect(Object.values(specs).map((s) => [s.env, s.default])).toEqual([
      ['LANDLORD_PURGER_RESYNC_SECONDS', '600'],
      ['LANDLORD_PURGER_RETRY_BASE_MS', '1000'],
      ['LANDLORD_PURGER_RETRY_MAX_SECONDS', '300'],
    ]);
  });

  it('gives a component without a Tenant resync only the retry settings, with its own ceiling', () => {
    const specs = retrySettings('SYNC', {
      failing: 'a failing Tenant write',
      retryBaseMs: 500,
      retryMaxSeconds: 60,
    });
    expect(Object.keys(specs)).toEqual(['retryBaseMs', 'retryMaxSeconds']);
    expect(specs.retryMaxSeconds.default).toBe('60');
  });

  it('turns the parsed settings into work-queue options in milliseconds', () => {
    expect(queueOptions({ concurrency: 4, retryBaseMs: 500, retryMaxSeconds: 60 })).toEqual({
      concurrency: 4,
      baseDelayMs: 500,
      maxDelayMs: 60_000,
    });
  });
});
