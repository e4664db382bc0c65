/**
 * A map of the last few entries used (least recently used dropped first): for what a long-lived server
 * makes from file contents (projects, compiled schemas, rule data), so that a rule file edited a
 * thousand times leaves the last few of what it made, not a thousand.
 */
export class Recent<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v === undefined) return undefined;
    // The most recently used last: the oldest goes first.
    this.entries.delete(key);
    this.entries.set(key, v);
    return v;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
