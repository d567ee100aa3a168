import { describe, expect, it } from 'vitest';
import { fillId } from '../../api/tenantclass.js';
import { isDns1123Label } from '../../util/names.js';
import { coldId, ID_LENGTH, idFor, randomId, usesId } from './ids.js';

describe('namespace ids', () => {
  it('random ids are DNS-safe base36 of the fixed length, and differ', () => {
    const ids = Array.from({ length: 200 }, randomId);
    for (const id of ids) expect(id).toMatch(new RegExp(`^[0-9a-z]{${ID_LENGTH}}$`));
    expect(new Set(ids).size).toBe(200);
  });

  it('a cold id is the same for the same uid, and another for another', () => {
    expect(coldId('uid-1')).toBe(coldId('uid-1'));
    expect(coldId('uid-1')).not.toBe(coldId('uid-2'));
    expect(coldId('uid-1')).toMatch(/^[0-9a-z]{8}$/);
  });

  it.each([
    { template: 't-{id}', namespace: 't-ab12cd34', id: 'ab12cd34' },
    { template: '{id}', namespace: 'ab12cd34', id: 'ab12cd34' },
    { template: 'pre-{id}-post', namespace: 'pre-ab12cd34-post', id: 'ab12cd34' },
    { template: '{id}-{id}', namespace: 'ab-ab', id: 'ab' },
    { template: 't-{id}', namespace: 'x-ab12cd34', id: undefined },
    { template: 't-{id}', namespace: 't-', id: undefined },
    { template: 't-{name}', namespace: 't-ab12cd34', id: undefined },
    { template: '{id}-{id}', namespace: 'ab-cd', id: undefined },
  ])('idFor($template, $namespace) = $id', ({ template, namespace, id }) => {
    expect(idFor(template, namespace)).toBe(id);
  });

  it('idFor inverts fillId for every random id', () => {
    for (let i = 0; i < 50; i++) {
      const id = randomId();
      const namespace = fillId('tenant-{id}', id);
      expect(isDns1123Label(namespace)).toBe(true);
      expect(idFor('tenant-{id}', namespace)).toBe(id);
    }
  });

  it('usesId tells "{id}" templates', () => {
    expect(usesId('t-{id}')).toBe(true);
    expect(usesId('t-{name}')).toBe(false);
  });
});
