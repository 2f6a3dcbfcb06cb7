/**
 * An error caused by what the user gave us (a file, a flag, a plugin), as opposed to a bug.
 * The CLI prints `error: <message>` and exits 2 for these; anything else exits 1.
 */
export class InputError extends Error {
  override name = "InputError";
  /**
   * The option the problem is in, by the library's name for it (`form`, `targets`, `inputs`), where
   * the message starts with it (`form: empty term in "x1 +"`). The CLI names the flag instead
   * (`--form: …`, cli/program.ts); a library user reads the field they passed.
   */
  readonly field?: string;

  constructor(message: string, options?: { field?: string }) {
    super(message);
    if (options?.field !== undefined) this.field = options.field;
  }
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}
