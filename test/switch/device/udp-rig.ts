/** A switch launched with UDP-wire ports and hosts on the other end of each wire, all on 127.0.0.1. */
import dgram from 'node:dgram';
import type { Port } from '../../../src/switch/ports/port.js';
import { RecordingPort } from '../../../src/switch/ports/recording-port.js';
import { UdpWirePort } from '../../../src/switch/ports/udp-wire-port.js';
import { launchSwitch, type LaunchedSwitch, type LaunchOptions } from '../../../src/switch/device/switch-launcher.js';

export class Host {
  readonly received: Buffer[] = [];
  private waiters: (() => void)[] = [];
  private switchPort = 0;

  private constructor(readonly socket: dgram.Socket) {
    socket.on('message', (msg) => {
      this.received.push(msg);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async open(): Promise<Host> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new Host(socket);
  }

  get port(): number {
    return this.socket.address().port;
  }

  attach(switchPort: number): void {
    this.switchPort = switchPort;
  }

  send(frame: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.send(frame, this.switchPort, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
  }

  /** Waits until `count` frames arrived in all (bounded by `ms`), then returns them as hex. */
  async frames(count: number, ms = 3000): Promise<string[]> {
    const deadline = Date.now() + ms;
    while (this.received.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received.map((f) => f.toString('hex'));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

function localPort(port: Port): number {
  const inner = port instanceof RecordingPort ? port.inner : port;
  if (!(inner instanceof UdpWirePort)) throw new Error('not a UDP wire');
  return inner.localPort;
}

export interface UdpRig {
  readonly sw: LaunchedSwitch;
  readonly hosts: Map<number, Host>;
  close(): Promise<void>;
}

export async function udpRig(portNumbers: readonly number[], options: Omit<LaunchOptions, 'ports' | 'server' | 'deviceId'> = {}): Promise<UdpRig> {
  const hosts = new Map<number, Host>();
  for (const n of portNumbers) hosts.set(n, await Host.open());
  let sw: LaunchedSwitch;
  try {
    sw = await launchSwitch({
      deviceId: 0,
      ports: portNumbers.map((n) => `${n}@udp:127.0.0.1:0:127.0.0.1:${hosts.get(n)!.port}`),
      server: { address: '127.0.0.1:0' },
      ...options,
    });
  } catch (e) {
    for (const h of hosts.values()) await h.close();
    throw e;
  }
  for (const [n, h] of hosts) h.attach(localPort(sw.device.ports.get(n)!));
  return {
    sw,
    hosts,
    close: async () => {
      await sw.stop();
      for (const h of hosts.values()) await h.close();
    },
  };
}
