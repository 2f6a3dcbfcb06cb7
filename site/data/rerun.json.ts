// Data loader for the report pages' "Re-run with…" forms (components/rerun.js): the method table's
// structure searches (the choices of the method field) and the commit the site is built from (the
// live run's manifest records it, as `consolesr run` records its checkout's). The live run itself
// loads the library in the browser only when asked to run.
// Reproduce: `npx tsx site/data/rerun.json.ts > rerun.json`.
import { SEARCH_METHOD_NAMES, VERSION } from "../../src/lib/index.js";
import { gitSha } from "../../src/cli/git.js";

process.stdout.write(JSON.stringify({ version: VERSION, git: gitSha(), methods: [...SEARCH_METHOD_NAMES] }));
