// The plugin worker's entry (see supervisor.ts): registers tsx as bin/consolesr.js does, then runs
// the same CLI program (main.ts sees workerData and runs the command here, watched).
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
