/** A minimal typed event emitter: listener errors are isolated from the stream reader. */
export type Listener<A extends unknown[]> = (...args: A) => void;
type Stored = (...args: unknown[]) => void;

export class TypedEmitter<M extends { [K in keyof M]: unknown[] }> {
  private readonly listeners = new Map<keyof M, Set<Stored>>();

  on<K extends keyof M>(name: K, fn: Listener<M[K]>): () => void {
    let set = this.listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(fn as unknown as Stored);
    return () => this.off(name, fn);
  }

  once<K extends keyof M>(name: K, fn: Listener<M[K]>): () => void {
    const off = this.on(name, ((...args: M[K]) => {
      off();
      fn(...args);
    }) as Listener<M[K]>);
    return off;
  }

  off<K extends keyof M>(name: K, fn: Listener<M[K]>): void {
    this.listeners.get(name)?.delete(fn as unknown as Stored);
  }

  protected emit<K extends keyof M>(name: K, ...args: M[K]): void {
    const set = this.listeners.get(name);
    if (set === undefined) return;
    // Iterating the live Set is safe: a listener removed meanwhile is skipped, one added runs too.
    for (const fn of set) {
      try {
        fn(...args);
      } catch (err) {
        // A throwing listener must not kill the event stream; it still surfaces, asynchronously.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
