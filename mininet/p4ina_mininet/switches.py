"""Switch classes for Mininet: p4ina's emulator (`p4ina switch`) and BMv2's
simple_switch_grpc, started with the same flags
(`--device-id N -i PORT@INTF … -- --grpc-server-addr 127.0.0.1:PORT`).

Each switch is a process in the root namespace bound to its veth interfaces
(AF_PACKET). start() returns once the P4Runtime port accepts connections;
stop() ends exactly the process it started (by PID: SIGTERM, then SIGKILL)
and never anything else. The pipeline comes from the controller.
"""
import os
import signal
import socket
import subprocess
import time

from mininet.node import Switch

from .lifeline import child_popen_kwargs

START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 5.0


class SwitchStartError(Exception):
    """The switch process exited, or its gRPC port never answered."""


def free_tcp_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def port_answers(port):
    try:
        with socket.create_connection(('127.0.0.1', port), timeout=0.5):
            return True
    except OSError:
        return False


def quiet_interface(name):
    """No offloads (the switch must see finished, MTU-sized frames) and no IPv6 chatter on a root-namespace veth of ours."""
    subprocess.run(['ethtool', '-K', name, 'tx', 'off', 'rx', 'off', 'sg', 'off', 'tso', 'off', 'gso', 'off', 'gro', 'off'],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    subprocess.run(['sysctl', '-q', '-w', 'net.ipv6.conf.%s.disable_ipv6=1' % name],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    subprocess.run(['ip', 'link', 'set', name, 'up'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


class P4RuntimeSwitch(Switch):
    """A P4 switch process with a P4Runtime server; subclasses say which command.

    Parameters (addSwitch(..., cls=…, key=value)):
      device_id   P4Runtime device id
      grpc_port   the P4Runtime port on 127.0.0.1 (default: a free one)
      log_dir     where NAME.log goes (required)
      pcap_dir    record every port to this directory (optional)
      cpu_port    --cpu-port N (optional)
      config      a device config to start with (optional; else --no-p4)
    """

    def __init__(self, name, device_id=0, grpc_port=None, log_dir=None, pcap_dir=None, cpu_port=None, config=None, **params):
        Switch.__init__(self, name, **params)
        self.device_id = device_id
        self.grpc_port = grpc_port or free_tcp_port()
        self.log_dir = log_dir
        self.pcap_dir = pcap_dir
        self.cpu_port = cpu_port
        self.config = config
        self.process = None
        self.log_path = os.path.join(log_dir, '%s.log' % name) if log_dir else os.devnull

    @property
    def grpc_address(self):
        return '127.0.0.1:%d' % self.grpc_port

    def ports_by_intf(self):
        """Every data interface and its port number (Mininet's `ports`, without lo)."""
        return {intf: port for intf, port in self.ports.items() if intf.name != 'lo'}

    def command(self):
        raise NotImplementedError

    def interface_args(self):
        args = []
        for port, intf in sorted((p, i.name) for i, p in self.ports_by_intf().items()):
            args += ['-i', '%d@%s' % (port, intf)]
        return args

    def target_args(self):
        args = ['--', '--grpc-server-addr', self.grpc_address]
        if self.cpu_port is not None:
            args += ['--cpu-port', str(self.cpu_port)]
        return args

    def start(self, controllers):
        for intf in self.ports_by_intf():
            quiet_interface(intf.name)
        if self.pcap_dir:
            os.makedirs(self.pcap_dir, exist_ok=True)
        argv = self.command()
        with open(self.log_path, 'ab') as log:
            # A session of its own: Ctrl-C in the terminal reaches the runner, which stops the switch itself.
            self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                            **self.popen_kwargs())
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SwitchStartError('%s: %s exited with code %s; see %s:\n%s' % (
                    self.name, argv[0], self.process.returncode, self.log_path, tail(self.log_path)))
            if port_answers(self.grpc_port):
                return
            time.sleep(0.1)
        raise SwitchStartError('%s: P4Runtime port %d did not answer within %.0f s; see %s' % (self.name, self.grpc_port, START_TIMEOUT_S, self.log_path))

    def popen_kwargs(self):
        """Extra Popen arguments for the switch process."""
        return {}

    def stop_process(self):
        """SIGTERM, then SIGKILL, to the one process we started."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT_S)

    def stop(self, deleteIntfs=True):
        self.stop_process()
        Switch.stop(self, deleteIntfs)

    def pid_started(self):
        return self.process.pid if self.process else None


class P4inaSwitch(P4RuntimeSwitch):
    """`node <repo>/dist/src/cli/main.js switch …`: p4ina's emulator.

    Extra parameters: node_binary (the Node.js binary), cli (the built main.js),
    port_rates ({port: Mbit/s}: each port's egress queue drains at its link's
    bandwidth, so queues and ECN marks build where Mininet's links would),
    queue_depth (packets per port queue; default the switch's own).
    """

    def __init__(self, name, node_binary='node', cli=None, port_rates=None, queue_depth=None, **params):
        P4RuntimeSwitch.__init__(self, name, **params)
        self.node = node_binary
        self.cli = cli
        self.port_rates = port_rates or {}
        self.queue_depth = queue_depth

    def queue_args(self):
        args = []
        for port, mbps in sorted(self.port_rates.items()):
            args += ['--port-rate', '%gMbps@%d' % (mbps, port)]
        if self.queue_depth and self.port_rates:
            args += ['--queue-depth', str(self.queue_depth)]
        return args

    def popen_kwargs(self):
        # Its lifeline to the runner: it stops by itself if the runner dies without its teardown.
        return child_popen_kwargs()

    def command(self):
        argv = [self.node, self.cli, 'switch', '--device-id', str(self.device_id)] + self.interface_args() + self.queue_args()
        if self.pcap_dir:
            argv += ['--pcap', self.pcap_dir]
        argv += [self.config] if self.config else ['--no-p4']
        return argv + self.target_args()


class Bmv2Switch(P4RuntimeSwitch):
    """BMv2's `simple_switch_grpc` with the same flags; the controller pushes p4c's JSON and P4Info.

    Extra parameter: binary (default simple_switch_grpc on PATH).
    """

    def __init__(self, name, binary='simple_switch_grpc', **params):
        P4RuntimeSwitch.__init__(self, name, **params)
        self.binary = binary

    def command(self):
        argv = [self.binary, '--device-id', str(self.device_id)] + self.interface_args()
        if self.pcap_dir:
            argv += ['--pcap', self.pcap_dir]
        argv += [self.config] if self.config else ['--no-p4']
        return argv + self.target_args()


def tail(path, lines=15):
    try:
        with open(path, 'rb') as f:
            return b'\n'.join(f.read().splitlines()[-lines:]).decode('utf8', 'replace')
    except OSError:
        return ''
