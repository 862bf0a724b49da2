/** Linux /proc readings the benchmarks share: memory and CPU time of processes and of the machine. */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

export interface ProcMemory {
  rssKiB: number;
  hwmKiB: number;
}

export function procMemory(pid: number): ProcMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM') };
  } catch {
    return undefined;
  }
}

export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * utime + stime of a process, in ms; with `exitedChildren`, also what the kernel charged it for
 * children that have exited and been waited for (cutime + cstime).
 */
export function procCpuMs(pid: number, { exitedChildren = false } = {}): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime is field 14, stime 15, cutime 16, cstime 17.
    const ticks = Number(fields[11]) + Number(fields[12]) + (exitedChildren ? Number(fields[13]) + Number(fields[14]) : 0);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * The read and write system calls a process has made (`syscr`, `syscw` of `/proc/<pid>/io`: read,
 * write and their vector forms — for a server, its socket reads and writes; NaN when unreadable).
 */
export function procSyscalls(pid: number): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(io)?.[1] ?? Number.NaN);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: Number.NaN, writes: Number.NaN };
  }
}

/**
 * CPU (ms) of every process named `postgres` on this machine (the server's backends,
 * including the pools of both servers); NaN when none is visible (Postgres elsewhere).
 */
export function postgresCpuMs(): number {
  return cpuOfProcesses((comm) => comm === 'postgres');
}

/**
 * CPU (ms) of the kernel's softirq threads: at high request rates they carry loopback
 * networking for the benchmark itself, so it must not count as unrelated load.
 */
export function softirqThreadsCpuMs(): number {
  return cpuOfProcesses((comm) => comm.startsWith('ksoftirqd/')) || 0;
}

export function cpuOfProcesses(match: (comm: string) => boolean): number {
  let total = 0;
  let seen = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!match(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) continue;
    } catch {
      continue;
    }
    const ms = procCpuMs(Number(entry));
    if (Number.isFinite(ms)) {
      total += ms;
      seen++;
    }
  }
  return seen > 0 ? total : Number.NaN;
}

/** Busy CPU time of the whole machine (all cores), ms, from /proc/stat: user + nice + system + steal. */
export function machineBusyMs(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // irq/softirq left out: loopback networking at high query rates lands there without
    // being charged to any process, and would read as "other" load.
    const [user = 0, nice = 0, system = 0, , , , , steal = 0] = fields;
    return ((user + nice + system + steal) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** The command line of a process, or `?` when it is gone. */
export function procCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '?';
  }
}

/** Direct children of a process (all its threads). */
export function procChildren(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of execFileSync('ls', [`/proc/${pid}/task`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) out.push(...list.split(' ').map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** The load averages (1, 5, 15 min) as the report shows them: `0.52 / 0.40 / 0.31`. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}
