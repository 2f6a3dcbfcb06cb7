// Fault injection for the queue tests (loaded with `node --require` into `consolesr worker`, whose
// job processes inherit it). In a job process (`sweep-worker`), every job ends badly before it runs:
// CONSOLESR_JOB_FAULT=crash: the process exits with code 70, as if it had been killed;
// CONSOLESR_JOB_FAULT=input: it answers with a bad-input error, as for bad data.
if (process.argv.includes("sweep-worker")) {
  const fault = process.env.CONSOLESR_JOB_FAULT;
  process.on("message", (request) => {
    if (fault === "crash") process.exit(70);
    if (fault === "input")
      process.send({ name: request.job.name, error: "injected bad input", input: true }, () => process.exit(0));
  });
}
