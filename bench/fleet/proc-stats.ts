import fs from "node:fs";

// Process accounting from /proc, as `top` would see it: CPU seconds (utime + stime) and resident
// memory, sampled from outside the measured processes.
const CLK_TCK = 100;

function statFields(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" "); // fields from #3 (state) on
  } catch {
    return undefined;
  }
}

/** utime + stime of a live process (children excluded unless `withChildren`), in seconds. */
export function cpuSeconds(pid: number, withChildren = false): number {
  const f = statFields(pid);
  if (!f) return 0;
  const ticks = Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0);
  return ticks / CLK_TCK;
}

export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export function parentOf(pid: number): number {
  const f = statFields(pid);
  return f ? Number(f[1]) : 0;
}

export function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Every live descendant of `root`. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const ppid = parentOf(pid);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/** CPU of a Postgres cluster: the postmaster with its reaped children plus live backends. */
export function clusterCpuSeconds(postmaster: number): number {
  return cpuSeconds(postmaster, true) + descendants(postmaster).reduce((s, p) => s + cpuSeconds(p), 0);
}

/** Samples RSS of named processes every `everyMs` and keeps each one's peak. */
export class RssSampler {
  readonly peaks = new Map<string, number>();
  private timer: NodeJS.Timeout;
  constructor(
    private readonly pids: () => Record<string, number | undefined>,
    everyMs = 250,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.sample();
  }
  sample(): void {
    for (const [name, pid] of Object.entries(this.pids())) {
      if (!pid) continue;
      this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, rssMiB(pid)));
    }
  }
  peak(name: string): number {
    return this.peaks.get(name) ?? 0;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}
