/**
 * Work on first use: what an import of the library does not pay for is done when a call first needs
 * it — tfjs is loaded (in Node through `require`, which loads synchronously; in a browser by an
 * awaited import: engine/tf.ts), and the zod schemas are built (`once`, `lazyObject`).
 */

/**
 * Node's `require`, resolving beside the module at `from` (its import.meta.url), where Node offers
 * one without importing a node: module (process.getBuiltinModule, Node ≥ 20.16); else undefined.
 */
export function nodeRequire(from: string): ((id: string) => unknown) | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof process?.getBuiltinModule !== "function") return undefined;
  const module = process.getBuiltinModule("node:module") as
    | { createRequire(from: string): (id: string) => unknown }
    | undefined;
  return module?.createRequire(from);
}

/** `make`'s value, made on the first call and kept. */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/**
 * An object made on first use: a stand-in that makes it when one of its members is first read (a
 * schema that a public name exports as a value, built only when something parses with it).
 */
export function lazyObject<T extends object>(make: () => T): T {
  const made = once(make);
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(made(), key),
    has: (_, key) => Reflect.has(made(), key),
    ownKeys: () => Reflect.ownKeys(made()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(made(), key);
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(made()),
  });
}
