/**
 * A new setting is one row of the settings table (src/lib/core/settings.ts) plus the code that
 * reads it (CONTRIBUTING.md, "Add a setting"). This file adds a boolean row, as a contributor
 * would, before anything else has read the table, and checks that the row alone gives the rest:
 * the CLI flag and its negation with their help, the `fit()` option, the check of its value (the
 * library's and a sweep variant's), the reference page's line, and the round trip through a
 * result's manifest (recorded for the methods that read it, read back by `reproduce`, and an
 * older manifest without it read as the row's `manifest.absent`).
 *
 * Only core/settings.ts is imported statically: every other module is imported after the row
 * is in, as it would be had the row been written in the file (node --test runs each file in a
 * process of its own, so no other test sees it).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { SETTINGS } from "../../src/lib/core/settings.js";

// The worked example of CONTRIBUTING.md: a switch of consolesr's, off by default, with a flag;
// results made before it existed ran without it.
(SETTINGS as unknown as Record<string, unknown>).trialSwitch = {
  kind: "boolean",
  group: "search",
  flag: "--trial-switch",
  help: "try the trial proposals first",
  default: false,
  readBy: ["consolesr"],
  manifest: { absent: false },
};

const { Command } = await import("commander");
const lib = await import("../../src/lib/index.js");
const { addSearchFlags, searchOverrides } = await import("../../src/cli/commands/fitOptions.js");
const { settingsPage } = await import("../../scripts/reference.js");

type Loose = Record<string, unknown>;

test("the row gives a flag and its negation, with the row's help, that set the setting", () => {
  const parse = (args: string[]) => {
    const command = addSearchFlags(new Command("run").exitOverride());
    command.parse(args, { from: "user" });
    return { help: command.helpInformation(), settings: searchOverrides(command.opts() as never).settings as Loose };
  };
  const on = parse(["--trial-switch"]);
  assert.equal(on.settings.trialSwitch, true);
  assert.equal(parse(["--no-trial-switch"]).settings.trialSwitch, false);
  assert.equal("trialSwitch" in parse([]).settings, false, "an absent flag leaves the method's default");
  assert.match(on.help, /--trial-switch +try the trial proposals first/);
  assert.match(on.help, /--no-trial-switch +turn --trial-switch off/);
});

test("the row gives the default, the schema's check and a sweep variant's check", () => {
  assert.equal((lib.resolveSettings("consolesr") as unknown as Loose).trialSwitch, false);
  assert.equal(
    (lib.resolveSettings("consolesr", { trialSwitch: true } as never) as unknown as Loose).trialSwitch,
    true,
  );
  assert.throws(
    () => lib.resolveSettings("consolesr", { trialSwitch: "yes" } as never),
    (e: Error) => lib.isInputError(e) && e.message === 'search option trialSwitch must be true or false (got "yes")',
  );
  const spec = (value: unknown) => ({
    experiments: ["syn1"],
    variants: [{ name: "v", settings: { trialSwitch: value } }],
  });
  assert.doesNotThrow(() => lib.parseSweepSpec(spec(true), "spec.json"));
  assert.throws(() => lib.parseSweepSpec(spec(1), "spec.json"), /trialSwitch: true or false/);
});

test("the row gives the methods that read it, and the reference page's line", () => {
  assert.ok((lib.METHODS.consolesr.uses as readonly string[]).includes("trialSwitch"));
  assert.ok(!(lib.METHODS.paper.uses as readonly string[]).includes("trialSwitch"));
  assert.ok(
    settingsPage().includes(
      "| `trialSwitch` | `--trial-switch` | `true` \\| `false` | `false` | consolesr | try the trial proposals first |",
    ),
  );
});

test("the row gives a fit() option kept in the manifest, read back, and its absent value in an old one", async () => {
  const X = Array.from({ length: 40 }, (_, i) => [0.5 + i / 20]);
  const y = X.map(([x]) => 2 * x!);
  const result = await lib.fit({ X, y, symbols: ["x"], search: { trialSwitch: true, episodes: 2 } as never });
  const config = result.manifest.config as Loose;
  assert.equal(config.trialSwitch, true);
  const keys = Object.keys(config);
  assert.equal(keys.at(-1), "trialSwitch", "a setting added after the frozen record order is written last");
  assert.equal((lib.configFromManifest(result) as unknown as Loose).trialSwitch, true);
  const old = { ...result, manifest: { ...result.manifest, config: { ...config } } };
  delete (old.manifest.config as Loose).trialSwitch;
  assert.equal((lib.configFromManifest(old) as unknown as Loose).trialSwitch, false);
  const paper = await lib.fit({ X, y, symbols: ["x"], method: "paper", search: { episodes: 2 } });
  assert.equal("trialSwitch" in paper.manifest.config, false, "a method that does not read it does not record it");
});
