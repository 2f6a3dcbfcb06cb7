/**
 * consolesr's command line. Exit codes (DESIGN): 0 success, 2 bad input or usage with one
 * `error: …` line on stderr, 1 an internal error (set CONSOLESR_DEBUG=1 for the stack), 130
 * after Ctrl-C stopped a search (the best equations so far are printed first).
 */
import { Command, CommanderError } from "commander";
import { isInputError } from "../lib/errors.js";
import { tf } from "../lib/tf.js";
import { VERSION } from "../lib/version.js";
import { interrupted, registerCommands } from "./commands.js";

// tfjs's "install tfjs-node" banner would be noise on stderr; PROD also skips debug checks.
tf.env().set("PROD", true);

const program = new Command("consolesr")
  .description("CoNSoLe symbolic regression: find the exact equation behind data")
  .version(VERSION)
  .exitOverride()
  .configureOutput({ writeErr: () => {} });
registerCommands(program);
for (const command of program.commands) command.exitOverride().configureOutput({ writeErr: () => {} });

try {
  await program.parseAsync(process.argv);
  // Ctrl-C during a search: the best so far has been printed; 130 = 128 + SIGINT.
  if (interrupted.value) {
    process.stderr.write("interrupted: printed the best equations found so far\n");
    process.exit(130);
  }
} catch (error) {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) process.exit(0); // --help, --version
    process.stderr.write(`${error.message.startsWith("error:") ? error.message : `error: ${error.message}`}\n`);
    process.exit(2);
  }
  if (isInputError(error)) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`error: internal: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.CONSOLESR_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}
