import { describe, expect, it } from 'vitest';
import { RowBook } from './row-book.js';

const spec = { deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } } };

describe('RowBook', () => {
  it('keeps a spec only until its write, and only for its own hash', () => {
    const book = new RowBook();
    book.set('a', { kind: 'tenant', hash: 'h1', state: 'active' });
    book.keepSpec('a', { hash: 'h1', spec, via: 'scan' });
    expect(book.spec('a', 'h2')).toBeUndefined();
    book.written('a', 'h0');
    expect(book.spec('a', 'h1')).toBe(spec);
    book.written('a', 'h1');
    expect(book.spec('a', 'h1')).toBeUndefined();
    expect(book.pendingWrites).toBe(0);
  });

  it('turns a rejected hash into a rejected verdict until the row changes', () => {
    const book = new RowBook();
    book.set('a', { kind: 'tenant', hash: 'h1', state: 'active' });
    book.reject('a', 'h1', 'no');
    expect(book.verdict('a')).toEqual({ kind: 'rejected', hash: 'h1', message: 'no' });
    book.set('a', { kind: 'tenant', hash: 'h1', state: 'active' });
    expect(book.verdict('a')).toEqual({ kind: 'rejected', hash: 'h1', message: 'no' });
    book.set('a', { kind: 'tenant', hash: 'h2', state: 'active' });
    expect(book.verdict('a')).toEqual({ kind: 'synced', hash: 'h2' });
  });

  it('withdraws a deletion approval when the row shows up again', () => {
    const book = new RowBook();
    book.approve('a', 1);
    expect(book.approval('a')).toBe(1);
    book.set('a', { kind: 'deleted' });
    expect(book.approval('a')).toBeUndefined();
  });

  it('forgets the rows a complete scan did not find', () => {
    const book = new RowBook();
    book.set('a', { kind: 'tenant', hash: 'h1', state: 'active' });
    book.set('b', { kind: 'invalid', attribute: 'spec', message: 'spec: bad' });
    book.keepSpec('a', { hash: 'h1', spec, via: 'scan' });
    book.retainOnly(new Set(['b']));
    expect(book.has('a')).toBe(false);
    expect(book.pendingWrites).toBe(0);
    expect(book.verdict('b')).toEqual({ kind: 'invalid', message: 'spec: bad' });
  });

  it('remembers the generation its own apply produced until the row goes or stops being a tenant', () => {
    const book = new RowBook();
    book.set('a', { kind: 'tenant', hash: 'h1', state: 'active' });
    book.keepSpec('a', { hash: 'h1', spec, via: 'scan' });
    book.applied('a', 'h1', 2);
    expect(book.appliedSpec('a')).toEqual({ hash: 'h1', generation: 2 });
    expect(book.pendingWrites).toBe(0);
    book.set('a', { kind: 'deleted' });
    expect(book.appliedSpec('a')).toBeUndefined();
    book.set('b', { kind: 'tenant', hash: 'h1', state: 'active' });
    book.applied('b', 'h1', 1);
    book.forget('b');
    expect(book.appliedSpec('b')).toBeUndefined();
  });
});

describe('RowBook: timeouts', () => {
  it('parks a hash on its second timeout, and forgets it when the row changes or is applied', () => {
    const book = new RowBook();
    book.set('a', { kind: 'tenant', hash: 'h1', state: 'active' });
    expect(book.timedOut('a', 'h1', 0, 1000)).toBeUndefined();
    expect(book.parked('a')).toBeUndefined();
    expect(book.timedOut('a', 'h1', 10, 1000)).toBe(1010);
    expect(book.parked('a')).toEqual({ hash: 'h1', until: 1010 });
    book.set('a', { kind: 'tenant', hash: 'h1', state: 'active' });
    expect(book.parked('a')).toEqual({ hash: 'h1', until: 1010 });
    book.set('a', { kind: 'tenant', hash: 'h2', state: 'active' });
    expect(book.parked('a')).toBeUndefined();
    expect(book.timedOut('a', 'h2', 0, 1000)).toBeUndefined();
    expect(book.timedOut('a', 'h1', 0, 1000)).toBeUndefined();
    expect(book.timedOut('a', 'h1', 0, 1000)).toBe(1000);
    book.applied('a', 'h1', 2);
    expect(book.parked('a')).toBeUndefined();
  });
});
