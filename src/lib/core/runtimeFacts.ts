/**
 * What a run ran on, for a result's manifest: the JavaScript engine, the operating system and the
 * number of cores. Written only beside the run's wall-clock seconds (the CLI's `--timings`, a
 * page's download), outside the part of the JSON that one seed reproduces byte for byte, and never
 * compared by `reproduce`. Browser-safe: it reads `navigator` or `process` where they exist.
 */
export interface RuntimeFacts {
  /** E.g. "V8 11.3.244.8-node.38 (Node 20.20.2)" or "Chromium 131 (V8)". */
  engine: string;
  /** E.g. "linux x64" or the browser's platform string. */
  os: string;
  /** Logical cores as the runtime reports them (null when it does not). */
  cores: number | null;
}

export interface NavigatorLike {
  userAgent?: string;
  platform?: string;
  hardwareConcurrency?: number;
  userAgentData?: { brands?: { brand: string; version: string }[]; platform?: string };
}

/**
 * The browser behind a navigator, e.g. "Chromium 131 (V8)", "Firefox 133.0 (SpiderMonkey)",
 * "Safari 17.6 (JavaScriptCore)".
 */
export function browserOf(nav: NavigatorLike): string {
  const brands = nav.userAgentData?.brands?.filter((b) => !/not.?a.?brand/i.test(b.brand)) ?? [];
  const named = brands.find((b) => b.brand !== "Chromium") ?? brands[0];
  if (named) return `${named.brand} ${named.version} (V8)`;
  const ua = nav.userAgent ?? "";
  const chromium = /(HeadlessChrome|Chromium|Edg|Chrome)\/([\d.]+)/.exec(ua);
  if (chromium) return `${chromium[1]} ${chromium[2]} (V8)`;
  const firefox = /Firefox\/([\d.]+)/.exec(ua);
  if (firefox) return `Firefox ${firefox[1]} (SpiderMonkey)`;
  const safari = /Version\/([\d.]+).*Safari/.exec(ua);
  if (safari) return `Safari ${safari[1]} (JavaScriptCore)`;
  return ua || "unknown";
}

/** The runtime this code runs in. `cores` overrides the reported core count (the CLI passes availableParallelism()). */
export function runtimeFacts(cores?: number): RuntimeFacts {
  const g = globalThis as { process?: { versions?: Record<string, string>; platform?: string; arch?: string } };
  const nav = (globalThis as { navigator?: NavigatorLike }).navigator;
  const versions = g.process?.versions;
  if (versions?.node) {
    return {
      engine: `V8 ${versions.v8} (Node ${versions.node})`,
      os: `${g.process!.platform} ${g.process!.arch}`,
      cores: cores ?? nav?.hardwareConcurrency ?? null,
    };
  }
  return {
    engine: nav ? browserOf(nav) : "unknown",
    os: nav?.userAgentData?.platform || nav?.platform || "unknown",
    cores: cores ?? nav?.hardwareConcurrency ?? null,
  };
}
