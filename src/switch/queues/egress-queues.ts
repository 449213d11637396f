/**
 * The switch's egress queues: which ports have one (a port with a transmit
 * rate), their settings, and the per-port lookup the traffic manager does for
 * every packet (`byPort`, one array read; undefined means the port has no
 * queue and egress runs at once, as without queues). Settings for every
 * port and for one port combine as BMv2's runtime commands do: setting every
 * port's rate or depth replaces the per-port ones, a per-port one then
 * overrides it for its port.
 */
import { MAX_PORT_NUMBER } from '../ports/port-number.js';
import { checkPortRate, type PortRate } from './port-rate.js';
import { PortQueue, type QueueStats } from './port-queue.js';
import type { QueueClock } from './queue-clock.js';
import { checkQueueDepth, checkQueuePort, checkQueueSettings, DEFAULT_QUEUE_DEPTH, type QueueSetting } from './queue-setting.js';

interface Override {
  rate?: PortRate | 'unlimited';
  depth?: number;
}

export class EgressQueues<T> {
  /** By port number: the port's queue when it has a rate, else undefined. Read per packet; never replaced. */
  readonly byPort: readonly (PortQueue<T> | undefined)[];
  private readonly slots: (PortQueue<T> | undefined)[] = new Array<PortQueue<T> | undefined>(MAX_PORT_NUMBER + 1).fill(undefined);
  /** Every queue made so far (kept when a port becomes unlimited, for its counters). */
  private readonly made = new Map<number, PortQueue<T>>();
  private allRate: PortRate | undefined = undefined;
  private allDepth = DEFAULT_QUEUE_DEPTH;
  private readonly overrides = new Map<number, Override>();

  constructor(
    private readonly clock: QueueClock,
    private readonly depart: (port: number, item: T, atMicros: number, depthAfter: number) => void,
  ) {
    this.byPort = this.slots;
  }

  /** Applies settings, every-port ones first, then per-port ones. Throws QueueError before applying any if one is bad. */
  configure(settings: readonly QueueSetting[]): void {
    checkQueueSettings(settings);
    for (const s of [...settings.filter((x) => x.port === undefined), ...settings.filter((x) => x.port !== undefined)]) {
      if (s.rate !== undefined) this.setRate(s.rate, s.port);
      if (s.depth !== undefined) this.setDepth(s.depth, s.port);
    }
  }

  /** The transmit rate of one port, or of every port (replacing per-port rates). Throws QueueError. */
  setRate(rate: PortRate | 'unlimited', port?: number): void {
    if (rate !== 'unlimited') checkPortRate(rate);
    if (port === undefined) {
      this.allRate = rate === 'unlimited' ? undefined : rate;
      for (const o of this.overrides.values()) delete o.rate;
      for (let p = 0; p <= MAX_PORT_NUMBER; p++) this.refresh(p);
      return;
    }
    this.override(checkQueuePort(port)).rate = rate;
    this.refresh(port);
  }

  /** The capacity in packets of one port's queue, or of every port's (replacing per-port ones). Throws QueueError. */
  setDepth(depth: number, port?: number): void {
    checkQueueDepth(depth);
    if (port === undefined) {
      this.allDepth = depth;
      for (const o of this.overrides.values()) delete o.depth;
      for (const q of this.made.values()) q.setCapacity(depth);
      return;
    }
    this.override(checkQueuePort(port)).depth = depth;
    this.refresh(port);
  }

  /** What applies to a port now. */
  settingsOf(port: number): { rate: PortRate | undefined; depth: number } {
    const o = this.overrides.get(checkQueuePort(port));
    const rate = o?.rate === undefined ? this.allRate : o.rate === 'unlimited' ? undefined : o.rate;
    return { rate, depth: o?.depth ?? this.allDepth };
  }

  /** Tail drops of a port's queue so far (0 without one). */
  tailDrops(port: number): number {
    return this.made.get(port)?.tailDropCount ?? 0;
  }

  /** Counters of the queues that have a rate or have seen packets, by port. */
  stats(): Map<number, QueueStats> {
    const out = new Map<number, QueueStats>();
    for (const [port, q] of [...this.made].sort((a, b) => a[0] - b[0])) {
      const s = q.stats();
      if (s.rate !== undefined || s.enqueued + s.tailDrops + s.flushed > 0) out.set(port, s);
    }
    return out;
  }

  /** Drops every queued packet (a pipeline change: they hold the old program's state); returns the count by port. */
  flush(): Map<number, number> {
    const dropped = new Map<number, number>();
    for (const [port, q] of this.made) {
      const n = q.flush();
      if (n > 0) dropped.set(port, n);
    }
    return dropped;
  }

  private override(port: number): Override {
    let o = this.overrides.get(port);
    if (!o) this.overrides.set(port, (o = {}));
    return o;
  }

  private refresh(port: number): void {
    const { rate, depth } = this.settingsOf(port);
    let q = this.made.get(port);
    if (q === undefined) {
      if (rate === undefined) return;
      const made = new PortQueue<T>(port, this.clock, (item, at, after) => this.depart(port, item, at, after));
      this.made.set(port, made);
      q = made;
    }
    q.setCapacity(depth);
    q.setRate(rate, this.clock.nowMicros());
    // Unlimited again: the queue emptied at once (setRate sends what waits), and packets bypass it.
    this.slots[port] = rate !== undefined || q.depth > 0 ? q : undefined;
  }
}
