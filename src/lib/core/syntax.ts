/**
 * The lexical rules shared by the CSV reader and the `--form` parser, so that a column name the
 * data accepts is one an equation can name, and a number the form reads is one a cell may hold.
 */

/**
 * A column name: a letter or `_`, then letters, digits, `_` and `.` (the names `--form`
 * reads as columns). Anything else (`a*b`, `y (m)`, `1x`) would make a printed equation
 * ambiguous.
 */
export const COLUMN_NAME = /^[A-Za-z_][\w.]*$/;

/**
 * A decimal number: optional sign, digits with an optional point (or a point and digits), an
 * optional exponent. Not the other forms JavaScript's Number() reads (0x1f, 0b101, 0o7,
 * Infinity).
 */
export const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Control characters (C0, DEL, C1: terminal escapes among them) and line separators. */
const LINE_BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Text from the user made safe for a one-line message: control characters and line separators escaped, long text cut.
 */
export function escapedLine(text: string, max = 60): string {
  // Cut after escaping, so that escapes cannot make the line longer than `max` (and a bit).
  const escaped = text.slice(0, max + 1).replace(LINE_BREAKS, (ch) => {
    const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    return named[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return text.length > max || escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

/** `text` in double quotes, one line (see escapedLine). */
export const quote = (text: string, max?: number): string => `"${escapedLine(text, max)}"`;

/**
 * A value read from a file, for a message: a string as it is, anything else as JSON; control
 * characters escaped and cut at `max` characters (escapedLine), so a file cannot flood or forge lines.
 */
export const shown = (value: unknown, max = 200): string =>
  escapedLine(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)), max);

/**
 * The first line of what was thrown (an Error's message, or the value as text), cut at `max`
 * characters: a cause inside a one-line message, without the stack or a multi-line dump.
 */
export const errorLine = (error: unknown, max = Number.POSITIVE_INFINITY): string =>
  (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, max);
