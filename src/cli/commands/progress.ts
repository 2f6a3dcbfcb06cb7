/**
 * A search's progress on stderr. On a terminal (stderr a TTY, not --quiet, TERM not "dumb") it
 * is one live bar per target (cli-progress): episodes done of the most, the best NRMSE so far,
 * the structures fitted, an ETA (to the episode limit: a stop rule usually ends the search
 * sooner) and the best equation, cut to the terminal's width. Anywhere else (a pipe, a file, the
 * tests) it is the plain lines, one when the best changes and one every 50 episodes:
 * `y episode 12: reward 0.981234; best 3*x1^2 (NRMSE 0.0123); 17 structures`, and one at least
 * every 10 s of work (`y: still searching after 20 s, episode 12, …`: an episode can be long).
 *
 * The bar changes no terminal mode (no hidden cursor, no line-wrap switch), so a process killed
 * while it shows leaves the terminal as it was; `stop()` clears its line, so that what follows
 * (the summary, warnings, the equations on stdout, the `interrupted` line) starts on a clean line.
 */
import cliProgress from "cli-progress";
import { formatNumber } from "../../lib/equation/index.js";
import type { Reporter } from "../io.js";

/**
 * Where the bar is drawn: process.stderr, or a stand-in with
 * the same isTTY and columns (the plugin worker's, the tests').
 */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
}

/** What the progress needs of a search's episode event (EpisodeEvent has it). */
export interface EpisodeProgress {
  target: string;
  episode: number;
  reward: number;
  structures: number;
  best: { key: string; nrmse: number };
}

/** Which question a target's search is asking (the search's phase, in words). */
export interface PhaseProgress {
  target: string;
  phase: string;
}

export interface SearchProgress<E extends EpisodeProgress = EpisodeProgress> {
  /** After each episode. */
  episode(event: E): void;
  /** When a target's search starts a phase before its episodes (a screen that may take a while). */
  phase(event: PhaseProgress): void;
  /**
   * Clears the bar (nothing for plain lines); call before printing anything else. Idempotent.
   * Resolves once the stream has taken the clearing: in the plugin worker stdout and stderr are
   * separate pipes to the main thread, so a line on stdout could otherwise overtake it.
   */
  stop(): Promise<void>;
}

export interface SearchProgressOptions<E extends EpisodeProgress = EpisodeProgress> {
  /** The stream the bar is drawn on (stderr). */
  stream: ProgressStream;
  /** Where the plain lines go (Reporter.info: nothing with --quiet). */
  log: Reporter;
  quiet: boolean;
  /** The episode limit per target (the bar's total). */
  episodes: number;
  /** The best equation of an event as text ("—" for none). */
  equation: (event: E) => string;
  /** The environment (TERM=dumb: plain lines); process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** The longest silence of the plain lines, in ms (10 s by default). */
  heartbeatMs?: number;
}

/** Whether progress on `stream` is a bar: a terminal, not --quiet, and not TERM=dumb. */
export function showsBar(stream: ProgressStream, quiet: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return !quiet && stream.isTTY === true && env.TERM !== "dumb";
}

/** One plain progress line (stderr when stderr is not a terminal). */
export function episodeLine(event: EpisodeProgress, equation: string): string {
  return (
    `${event.target} episode ${event.episode}: reward ${event.reward.toFixed(6)}; ` +
    `best ${equation} (NRMSE ${formatNumber(event.best.nrmse, 3)}); ${event.structures} structures`
  );
}

/** The progress of one search: plain lines, or bars when `showsBar`. */
export function searchProgress<E extends EpisodeProgress>(options: SearchProgressOptions<E>): SearchProgress<E> {
  return showsBar(options.stream, options.quiet, options.env) ? barProgress(options) : lineProgress(options);
}

/** The longest silence of the plain progress lines (ms). */
export const HEARTBEAT_MS = 10_000;

function lineProgress<E extends EpisodeProgress>({
  log,
  equation,
  heartbeatMs = HEARTBEAT_MS,
}: SearchProgressOptions<E>): SearchProgress<E> {
  let shown = "";
  const start = performance.now();
  let last = start;
  let latest: E | undefined;
  let asking: PhaseProgress | undefined;
  const say = (line: string) => {
    last = performance.now();
    log.info(line);
  };
  // A line at least every heartbeatMs of work: episodes (the first above all) can take longer.
  const heartbeat = setInterval(
    () => {
      if (performance.now() - last < heartbeatMs) return;
      const seconds = Math.round((performance.now() - start) / 1000);
      say(
        latest
          ? `${latest.target}: still searching after ${seconds} s, episode ${latest.episode}; ` +
              `best ${equation(latest)} (NRMSE ${formatNumber(latest.best.nrmse, 3)}); ${latest.structures} structures`
          : `${asking ? `${asking.target}: ` : ""}still searching after ${seconds} s ` +
              `(${asking?.phase ?? "screening before the first episode"})`,
      );
    },
    Math.max(10, Math.floor(heartbeatMs / 4)),
  );
  heartbeat.unref();
  return {
    phase(event) {
      asking = event;
      latest = undefined;
      say(`${event.target}: ${event.phase}`);
    },
    episode(event) {
      latest = event;
      const key = `${event.best.key}`;
      if (key !== shown || event.episode % 50 === 0) {
        shown = key;
        say(episodeLine(event, equation(event)));
      }
    },
    stop: () => {
      clearInterval(heartbeat);
      return Promise.resolve();
    },
  };
}

interface BarPayload {
  target: string;
  nrmse: string;
  structures: number;
  equation: string;
}

/** cli-progress's ETA (seconds, or "NULL"/"INF" when it cannot tell) in words; "?" before the first episode. */
function eta(params: cliProgress.Params, options: cliProgress.Options): string {
  const seconds = Number(params.eta);
  return params.value > 0 && Number.isFinite(seconds) ? cliProgress.Format.TimeFormat(seconds, options, 1) : "?";
}

/**
 * One bar line: `y [████░░░░] 120/600 episodes | NRMSE 0.0123 | 57 structures | ETA 42s | 3*x1^2`, cut to the width.
 */
const formatLine: cliProgress.GenericFormatter = (options, params, payload: BarPayload) => {
  const bar = cliProgress.Format.BarFormat(params.progress, options);
  const line =
    `${payload.target} ${bar} ${params.value}/${params.total} episodes ` +
    `| NRMSE ${payload.nrmse} | ${payload.structures} structures` +
    ` | ETA ${eta(params, options)} | ${payload.equation}`;
  // One column short of the width: a line that fills it wraps on some terminals.
  return [...line].slice(0, Math.max(1, params.maxWidth - 1)).join("");
};

function barProgress<E extends EpisodeProgress>({
  stream,
  episodes,
  equation,
}: SearchProgressOptions<E>): SearchProgress<E> {
  let bar: cliProgress.SingleBar | undefined;
  let target: string | undefined;
  let key: string | undefined;
  let text = "—";
  const clear = () => {
    bar?.stop();
    bar = undefined;
    target = undefined;
  };
  // The bar writes through this, which keeps when the stream has taken its last write.
  let written = Promise.resolve();
  const drawn: ProgressStream = {
    isTTY: stream.isTTY,
    get columns() {
      return stream.columns; // (read at each frame: a resized terminal)
    },
    write: (chunk) => {
      written = new Promise((resolve) => stream.write(chunk, () => resolve()));
      return true;
    },
  };
  const stop = () => {
    clear();
    // (A stream that never calls back, a closed one, holds nothing up for long.)
    return Promise.race([written, new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
  };
  /** A target's bar, made where it is not the one shown. */
  const open = (name: string) => {
    if (name === target) return;
    clear();
    target = name;
    key = undefined;
    const columns = stream.columns || 80;
    bar = new cliProgress.SingleBar({
      stream: drawn as unknown as NodeJS.WritableStream,
      format: formatLine,
      barsize: Math.max(10, Math.min(30, Math.floor(columns / 5))),
      barCompleteChar: "\u2588",
      barIncompleteChar: "\u2591",
      // No terminal modes: a killed process leaves the terminal as it was.
      hideCursor: false,
      linewrap: true,
      clearOnComplete: true,
      // The search's own handler (commands.ts) stops the bar on SIGINT/SIGTERM.
      gracefulExit: false,
      etaBuffer: 50,
      fps: 10,
    });
    bar.start(episodes, 0, { target: name, nrmse: "—", structures: 0, equation: "—" } satisfies BarPayload);
  };
  return {
    phase(event) {
      open(event.target);
      bar!.update({ equation: event.phase } satisfies Partial<BarPayload>);
    },
    episode(event) {
      open(event.target);
      if (event.best.key !== key) {
        key = event.best.key;
        text = equation(event);
      }
      bar!.update(event.episode, {
        nrmse: formatNumber(event.best.nrmse, 3),
        structures: event.structures,
        equation: text,
      } satisfies Partial<BarPayload>);
    },
    stop,
  };
}
