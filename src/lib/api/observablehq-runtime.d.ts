// The part of @observablehq/runtime (6.x, plain JavaScript without types) that consolesr uses.
declare module "@observablehq/runtime" {
  export interface Observer {
    pending?(): void;
    fulfilled?(value: unknown, name?: string | null): void;
    rejected?(error: unknown, name?: string | null): void;
  }
  /** Given a cell's name, its observer, or nothing for a cell no one watches. */
  export type ObserverFactory = (name?: string) => Observer | undefined | null | undefined;

  export class Variable {
    define(name: string | null, inputs: readonly string[], definition: unknown): this;
    define(name: string | null, definition: unknown): this;
    delete(): void;
  }

  export class Module {
    variable(
      observer?: Observer | boolean | null | undefined,
      options?: { shadow?: Record<string, unknown> },
    ): Variable;
    define(name: string | null, inputs: readonly string[], definition: unknown): Variable;
    define(name: string | null, definition: unknown): Variable;
    redefine(name: string, inputs: readonly string[], definition: unknown): Variable;
    redefine(name: string, definition: unknown): Variable;
    value(name: string): Promise<unknown>;
    builtin(name: string, value: unknown): void;
  }

  export type ModuleDefinition = (runtime: Runtime, observer: ObserverFactory) => Module;

  export class Runtime {
    constructor(builtins?: Record<string, unknown>, global?: (name: string) => unknown);
    module(define?: ModuleDefinition, observer?: ObserverFactory): Module;
    dispose(): void;
  }

  export class RuntimeError extends Error {
    constructor(message: string, input?: string);
    input?: string;
  }
}
