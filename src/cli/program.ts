/**
 * One command of consolesr's command line, run on the arguments after `consolesr`; main.ts runs
 * it in-process, or inside the plugin worker (sandbox/supervisor.ts) when the command loads plugin files.
 * Exit codes (docs/design.md#exit-codes): 0 success, 2 bad input or usage with one `error: …` line on stderr, 1 an
 * internal error (set CONSOLESR_DEBUG=1 for the stack), 128 + the signal's number (130 for
 * Ctrl-C, 143 for SIGTERM) after a signal stopped a search (the best equations so far are
 * printed first).
 */
// First: silences tfjs's "install tfjs-node" banner before any other module can touch a backend.
import "./quietTfjs.js";
import { constants } from "node:os";
import { Command, CommanderError } from "commander";
import { escapedLine, isInputError, type InputError, SETTINGS, type SettingRow } from "../lib/core/index.js";
import { VERSION } from "../lib/core/index.js";
import { registerCommands } from "./commands/commands.js";
import { registerReport } from "./commands/report.js";
import { interrupted } from "./commands/running.js";
import { registerWorker } from "./queue/queueWorker.js";

/**
 * Runs `args` (e.g. ["fit", "data.csv", …]); the exit code to
 * end with, or undefined to end normally (process.exitCode).
 */
export async function runCli(args: readonly string[]): Promise<number | undefined> {
  const program = new Command("consolesr")
    .description("CoNSoLe symbolic regression: find the exact equation behind data")
    .version(VERSION)
    .exitOverride()
    // commander's own error lines are dropped (the catch below prints the one `error: …` line);
    // help still reaches stderr, e.g. for `consolesr` without a command.
    .configureOutput({ outputError: () => {} });
  registerCommands(program);
  registerReport(program);
  registerWorker(program);
  for (const command of program.commands) command.exitOverride().configureOutput({ outputError: () => {} });

  try {
    await program.parseAsync(args, { from: "user" });
    // A signal during a search: the best so far has been printed; 128 + the signal
    // (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
    if (interrupted.value) {
      const signal = interrupted.signal ?? "SIGINT";
      const how = signal === "SIGINT" ? "interrupted" : `stopped by ${signal}`;
      process.stderr.write(
        interrupted.before
          ? `${how} while ${interrupted.before}: no equation was found yet, nothing written\n`
          : `${how}: printed the best equations found so far\n`,
      );
      return 128 + constants.signals[signal];
    }
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      // No command (`consolesr` alone): commander has printed the help on stderr; a usage error.
      if (error.code === "commander.help") return 2;
      const text = oneLine(error.message);
      process.stderr.write(`${text.startsWith("error:") ? text : `error: ${text}`}\n`);
      return 2;
    }
    if (isInputError(error)) {
      process.stderr.write(`error: ${oneLine(flagMessage(error))}\n`);
      return 2;
    }
    process.stderr.write(`error: internal: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
    if (process.env.CONSOLESR_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

/**
 * An error's message as one line of the terminal: a name from the user (a file named with a line
 * break or a terminal escape) cannot forge a second `error:` line or colour what follows.
 */
const oneLine = (message: string): string => escapedLine(message.replace(/\n+$/, ""), Number.POSITIVE_INFINITY);

/**
 * The flag that sets each library option an InputError can name: every flagged row of the settings
 * table (core/settings.ts), and the options the commands define themselves.
 */
const FLAG_OF: Record<string, string> = {
  ...Object.fromEntries(
    (Object.entries(SETTINGS) as [string, SettingRow][]).flatMap(([name, row]) =>
      row.flag ? [[name, row.flag.split(" ")[0]!]] : [],
    ),
  ),
  form: "--form",
  targets: "--target",
  inputs: "--inputs",
  symbols: "--symbols",
  method: "--method",
  rows: "--rows",
  seed: "--seed",
  snrDb: "--snr",
  constraints: "--constraints",
  reward: "--reward",
  hidden: "--hidden",
  exact: "--exact",
};

/**
 * An input error as the CLI says it: the library names its options (a message that starts with
 * its field, `form: …`, and options in backquotes, `` `rows` 9000 is more than …``); the CLI names
 * the flags instead (`--form: …`, `--rows 9000 is more than …`). Backquoted text that is not an
 * option stays as it is.
 */
export function flagMessage(error: InputError): string {
  const flag = error.field === undefined ? undefined : FLAG_OF[error.field];
  // A search setting's own check says `search option timeLimit …`: the CLI names its flag, --time-limit.
  const setting = /^search option (\w+)\b/.exec(error.message)?.[1];
  const message =
    flag && error.message.startsWith(`${error.field}: `)
      ? `${flag}: ${error.message.slice(error.field!.length + 2)}`
      : setting !== undefined && Object.hasOwn(FLAG_OF, setting)
        ? `${FLAG_OF[setting]}${error.message.slice(`search option ${setting}`.length)}`
        : error.message;
  return message.replace(/`(\w+)`/g, (text, name: string) => (Object.hasOwn(FLAG_OF, name) ? FLAG_OF[name]! : text));
}
