/**
 * An error caused by what the user gave us (a file, a flag, a plugin), as opposed to a bug.
 * The CLI prints `error: <message>` and exits 2 for these; anything else exits 1.
 */
export class InputError extends Error {
  override name = "InputError";
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}
