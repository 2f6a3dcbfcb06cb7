// Fault injection for the hardening tests (loaded with `node --require`): writing a result JSON
// fails half-way with ENOSPC, as on a full disk. Everything else is written normally.
const fs = require("node:fs");
const { syncBuiltinESMExports } = require("node:module");

const write = fs.writeFileSync;
fs.writeFileSync = function writeFileSync(file, data, ...rest) {
  const text = typeof data === "string" ? data : Buffer.from(data).toString("utf8");
  if (text.startsWith('{\n  "version": 1')) {
    write.call(fs, file, text.slice(0, Math.floor(text.length / 2)), ...rest);
    const error = new Error("ENOSPC: no space left on device, write");
    error.code = "ENOSPC";
    throw error;
  }
  return write.call(fs, file, data, ...rest);
};
syncBuiltinESMExports();
