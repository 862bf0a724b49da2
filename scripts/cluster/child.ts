import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  exited(): boolean;
  /** The last lines it printed, for an error message. */
  recentOutput(): string;
  /** Resolves once a line of its output contains `text` (rejects if it exits first, or after `ms`). */
  waitFor(text: string, ms: number): Promise<void>;
  /** Resolves with its exit code or signal once it has exited. */
  exit: Promise<number | string>;
  /** `signal`, then SIGKILL if it is still running after `ms`. */
  stop(signal: NodeJS.Signals, ms: number): Promise<void>;
}

const RECENT_LINES = 40;

/** Every child still running, so that a failed start can stop what it started. */
export const runningChildren = new Set<Child>();

/**
 * A process of the cluster: its output is passed on line by line, each line prefixed with its
 * name (`[web1] …`), so one terminal shows the whole cluster. By default it runs in the cluster's
 * process group: Ctrl-C reaches it too, and each such part stops itself cleanly on SIGINT.
 */
export function startChild(name: string, command: string, args: string[], options: { env?: NodeJS.ProcessEnv; ownGroup?: boolean } = {}): Child {
  // `ownGroup`: a Ctrl-C (which signals the terminal's whole foreground group) does not reach it,
  // so the cluster stops it in its turn, after the processes that use it.
  const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.ownGroup ?? false });
  const recent: string[] = [];
  const watchers = new Set<(line: string) => void>();
  let exited = false;
  const exit = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  for (const stream of [child.stdout!, child.stderr!]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        process.stdout.write(`[${name}] ${line}\n`);
        recent.push(line);
        if (recent.length > RECENT_LINES) recent.shift();
        for (const watch of watchers) watch(line);
      }
    });
  }
  const handle: Child = {
    name,
    process: child,
    pid: child.pid!,
    exited: () => exited,
    recentOutput: () => recent.join('\n'),
    exit,
    waitFor(text, ms) {
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          watchers.delete(watch);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        };
        const watch = (line: string) => line.includes(text) && done();
        const timer = setTimeout(() => done(new Error(`${name} did not print "${text}" within ${ms / 1000} s:\n${recent.join('\n')}`)), ms);
        watchers.add(watch);
        void exit.then((code) => done(new Error(`${name} exited (${code}) before it printed "${text}":\n${recent.join('\n')}`)));
      });
    },
    async stop(signal, ms) {
      if (exited) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      await exit;
      clearTimeout(timer);
    },
  };
  runningChildren.add(handle);
  void exit.then(() => runningChildren.delete(handle));
  return handle;
}
