// The generation each Tenant's events last carried: a new spec must not wait out the backoff the
// previous one earned, and a changed spec may free labels other Tenants were refused over.
export interface GenerationSeen {
  /** Not the generation the last event carried (a new Tenant, or a new spec). */
  fresh: boolean;
  /** A known Tenant's spec changed. */
  respecified: boolean;
}

export class Generations {
  private readonly seen = new Map<string, number | undefined>();

  /** Records the generation of a Tenant event (forgotten with a deletion) and says what it is. */
  observe(name: string, generation: number | undefined, deleted: boolean): GenerationSeen {
    const previous = this.seen.get(name);
    if (deleted) this.seen.delete(name);
    else this.seen.set(name, generation);
    return {
      fresh: previous !== generation,
      respecified: previous !== undefined && previous !== generation,
    };
  }
}
