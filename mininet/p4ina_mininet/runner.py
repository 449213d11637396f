"""The testbed run, start to finish: plan → compile the P4 programs →
Mininet up (our switches wait for their gRPC ports) → hosts prepared → the
controller from the root namespace (`p4ina controller apply`) → ordinary
traffic (optional) → SwitchML, ATP (all ATP jobs at once, each with its
parameter server) or Rina, then OmniReduce with its host aggregator and in
the switch (the INA switches reprogrammed to omnireduce.p4 for it), then the
parameter-server baseline (its server on a host of its own), the ring and
hierarchical baselines, one agent per host and job → the results document
(main.py hands it to `p4ina testbed format`).

Whatever happens — success, a failure, Ctrl-C or SIGTERM — `finally` takes
down exactly what this run made: the switch processes it started (by PID),
Mininet's hosts and links (net.stop()), any interface of our own names left
behind, and its temp dir. Never `mn -c`, never a kill by name.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from .agents import hierarchical_argv, rina_job_spec, rina_placed, ring_argv, run_workers, switchml_argv, switchml_job_spec
from .atp_jobs import atp_commands, atp_job_specs
from .atp_runs import run_atp_jobs
from .cpu_use import switch_cpu_since, switch_cpu_snapshot
from .omnireduce_runs import omnireduce_commands, omnireduce_job_spec, run_omnireduce
from .hosts import HostSetupError, apply_loss, packets_dropped, kernel_has_netem, kernel_has_red_ecn, ping_all, prepare_hosts, tcp_transfer
from .programs import ProgramError, Programs, ina_program_of
from .ps_run import run_ps
from .switches import Bmv2Switch, P4inaSwitch, SwitchStartError, free_tcp_port
from .selection import choose_hosts, make_plan
from .topologies import TopologyError, mininet_topo, port_rates, topology_json

class Interrupted(BaseException):
    """SIGINT or SIGTERM: stop and tear down."""


class TestbedFailure(Exception):
    """A step failed; the message says which and why."""


def progress(text):
    sys.stderr.write('testbed: %s\n' % text)
    sys.stderr.flush()


class Testbed:
    def __init__(self, options, node, cli, repo):
        self.options = options
        self.node = node
        self.cli = cli
        self.repo = repo
        self.net = None
        self.plan = None
        self.pids = []
        self.own_dir = options.logs is None
        self.dir = options.logs or tempfile.mkdtemp(prefix='p4ina-testbed-')
        os.makedirs(self.dir, exist_ok=True)
        self.devices = {}
        self.program_source = Programs(node, cli, repo, self.dir, options)
        self.ina_program = None

    # --- programs and switches -------------------------------------------------------------
    def programs(self):
        """The files of what each P4 switch kind starts with: the first INA program of the run, forward.p4."""
        kinds = {s.kind for s in self.plan.switches}
        self.ina_program = self.program_source.first_ina
        files = {}
        try:
            if 'ina' in kinds:
                files['ina'] = self.program_source.files(self.ina_program)
            if 'p4' in kinds:
                files['p4'] = self.program_source.files('forward')
        except ProgramError as err:
            raise TestbedFailure(str(err))
        return files

    def reprogram(self, name):
        """The INA switches run p4/NAME.p4 from the next `controller apply` on (it pushes the pipeline)."""
        if self.ina_program == name or 'ina' not in self.program_files:
            return
        progress('the INA switches: p4/%s.p4 instead of p4/%s.p4' % (name, self.ina_program))
        try:
            self.program_files['ina'] = self.program_source.files(name)
        except ProgramError as err:
            raise TestbedFailure(str(err))
        self.ina_program = name

    def switch_params(self, sw):
        from mininet.nodelib import LinuxBridge
        if sw.kind == 'bridge':
            return {'cls': LinuxBridge}
        device_id, port = self.devices[sw.name]
        params = {'device_id': device_id, 'grpc_port': port, 'log_dir': self.dir,
                  'pcap_dir': os.path.join(self.options.pcap, sw.name) if self.options.pcap else None}
        if self.options.target == 'bmv2':
            return dict(params, cls=Bmv2Switch, binary=self.options.bmv2_binary)
        return dict(params, cls=P4inaSwitch, node_binary=self.node, cli=self.cli, config=self.program_files[sw.kind]['config'],
                    port_rates=port_rates(self.plan, sw.name, self.options), queue_depth=self.options.queue_depth)

    # --- the run ---------------------------------------------------------------------------
    def run(self):
        from mininet.link import TCLink
        from mininet.net import Mininet

        options = self.options
        try:
            self.plan = make_plan(options)
            chosen = {a: choose_hosts(self.plan, options, a) for a in options.job}
        except TopologyError as err:
            raise TestbedFailure(str(err))
        switchml_hosts, atp_hosts, rina_hosts, ps_hosts, ring_hosts, hierarchical_hosts = (chosen.get(a, []) for a in ('switchml', 'atp', 'rina', 'ps', 'ring', 'hierarchical'))
        ps_text = ' and %d PS host(s)' % len(self.plan.ps_hosts) if self.plan.ps_hosts else ''
        progress('%s: %d hosts%s, switches %s' % (options.topo, len(self.plan.hosts), ps_text, ', '.join('%s (%s)' % (s.name, s.kind) for s in self.plan.switches)))
        if options.delay and not kernel_has_netem():
            raise TestbedFailure('--delay needs the netem qdisc, which this kernel lacks (CONFIG_NET_SCH_NETEM); leave --delay out')
        # --ecn: the switches always mark (the jobs' ECN threshold); the kernel marks too where it has RED.
        red_ecn = bool(options.ecn) and kernel_has_red_ecn()
        if options.ecn and not red_ecn:
            progress('--ecn: this kernel has no RED qdisc (CONFIG_NET_SCH_RED), so only the P4 switches mark')
        if options.bw and options.target == 'bmv2':
            progress('--bw shapes the links only: BMv2\'s queue rates are set through its Thrift CLI (set_queue_rate), which the testbed does not use')
        progress('compiling the P4 programs' if options.target == 'p4ina' else 'using the given BMv2 programs')
        self.program_files = self.programs()
        p4 = [s for s in self.plan.switches if s.kind != 'bridge']
        self.devices = {s.name: (i, free_tcp_port()) for i, s in enumerate(p4)}

        progress('starting Mininet and %d P4 switch(es)' % len(p4))
        topo = mininet_topo(self.plan, options, self.switch_params, red_ecn)
        # cleanup=False: Mininet's cleanup is `mn -c`, which would touch other people's networks.
        self.net = Mininet(topo=topo, controller=None, link=TCLink, build=False, autoSetMacs=False, cleanup=False)
        self.net.build()
        try:
            self.net.start()
        except SwitchStartError as err:
            raise TestbedFailure('a switch did not start: %s' % err)
        self.pids += [n.pid for n in self.net.hosts + self.net.switches if n.pid]
        self.pids += [sw.pid_started() for sw in self.net.switches if getattr(sw, 'pid_started', None) and sw.pid_started()]
        prepare_hosts(self.net, self.plan)
        if options.loss:
            try:
                apply_loss(self.net, options.loss)
            except HostSetupError as err:
                raise TestbedFailure(str(err))

        jobs_text = ', SwitchML job' if switchml_hosts else ', %d ATP job(s)' % options.atp_jobs if atp_hosts else ', Rina job' if rina_hosts else ''
        progress('controller: pipelines, forwarding%s' % jobs_text)
        aggregator_ip, atp_applied, rina_applied = self.apply_controller(switchml_hosts, atp_hosts, rina_hosts)

        traffic = None
        if options.traffic:
            progress('ordinary traffic: ping between every pair, TCP %s → %s' % (self.plan.hosts[0].name, self.plan.hosts[-1].name))
            sent, received, failed = ping_all(self.net)
            tcp = tcp_transfer(self.net.get(self.plan.hosts[0].name), self.net.get(self.plan.hosts[-1].name))
            traffic = {'ping': {'sent': sent, 'received': received, 'failed': failed}, 'tcp': [tcp]}

        runs = []
        if switchml_hosts:
            progress('SwitchML: %d workers × %d bytes through %s, %d values per packet' % (len(switchml_hosts), options.tensor, aggregator_ip, options.switchml_elements))
            placed = [(h, switchml_argv(self.node, self.cli, h, rank, len(switchml_hosts), aggregator_ip, options)) for rank, h in enumerate(switchml_hosts)]
            runs += self.with_switch_cpu(lambda: [dict(run_workers(self.net, 'switchml', placed, options.timeout, self.pids), hosts=[h.name for h in switchml_hosts],
                                                         elements=options.switchml_elements)])
        if atp_hosts:
            runs += self.with_switch_cpu(lambda: self.run_atp(atp_hosts, atp_applied))
        if rina_hosts:
            runs += self.with_switch_cpu(lambda: [self.run_rina(rina_hosts, rina_applied)])
        for a in ('omnireduce', 'omnireduce-switch'):
            if a in chosen:
                runs += self.with_switch_cpu(lambda: [self.run_omnireduce(a, chosen[a])])
        if ps_hosts:
            server = self.plan.ps_hosts[0]
            progress('PS baseline: %d workers × %d bytes over TCP, its server on %s' % (len(ps_hosts), options.tensor, server.name))
            runs += self.with_switch_cpu(lambda: [run_ps(self.net, self.node, self.cli, server, ps_hosts, options, self.pids)])
        if ring_hosts:
            progress('ring: %d workers × %d bytes over TCP' % (len(ring_hosts), options.tensor))
            placed = [(h, ring_argv(self.node, self.cli, ring_hosts, rank, options)) for rank, h in enumerate(ring_hosts)]
            runs += self.with_switch_cpu(lambda: [dict(run_workers(self.net, 'ring', placed, options.timeout, self.pids), hosts=[h.name for h in ring_hosts])])
        if hierarchical_hosts:
            racks = len({h.rack for h in hierarchical_hosts})
            progress('hierarchical: %d workers in %d rack(s) × %d bytes over TCP' % (len(hierarchical_hosts), racks, options.tensor))
            placed = [(h, hierarchical_argv(self.node, self.cli, hierarchical_hosts, rank, options)) for rank, h in enumerate(hierarchical_hosts)]
            runs += self.with_switch_cpu(lambda: [dict(run_workers(self.net, 'hierarchical', placed, options.timeout, self.pids), hosts=[h.name for h in hierarchical_hosts])])
        dropped = packets_dropped(self.net) if options.loss else 0
        ecn = {'threshold': options.ecn_threshold, 'kernelRed': red_ecn, 'bandwidthMbps': options.bw} if options.ecn else None
        sparsity = {'sparsity': options.sparsity or 0.0, 'pattern': options.pattern or 'random', 'block': options.omnireduce_host_block} if options.sparsity_args else None
        return {'topology': options.topo + (' (INA ToRs: %s)' % options.ina_tors if self.plan.kind == 'leafspine' else ''),
                'tensorBytes': options.tensor, 'sparsity': sparsity, 'loss': options.loss, 'packetsLost': dropped, 'seed': options.seed, 'runs': runs, 'traffic': traffic,
                'ecn': ecn, 'pids': self.pids, 'logs': None if self.own_dir else self.dir}

    def with_switch_cpu(self, make_runs):
        """make_runs() → runs, each given `switchCpu`: what every switch process used while they ran (runs made by one
        call ran at the same time, e.g. ATP's jobs, and share it)."""
        before = switch_cpu_snapshot(self.net.switches)
        runs = make_runs()
        spent = switch_cpu_since(before)
        return [dict(run, switchCpu=spent) for run in runs]

    def run_atp(self, atp_hosts, applied):
        """Every ATP job at once; one run per job, in job order."""
        commands = [atp_commands(self.node, self.cli, a, self.options) for a in applied]
        where = ', '.join('job %d: PS %s, level 0 %s, level 1 %s' % (c['job'], c['ps'][0], ', '.join(c['level0']) or 'none', c['level1'] or 'none') for c in commands)
        progress('ATP: %d job(s) × %d workers × %d bytes (%s)' % (len(commands), len(atp_hosts), self.options.tensor, where))
        results = run_atp_jobs(self.net, commands, self.options.timeout, self.pids)
        runs = []
        for command, result in zip(commands, results):
            runs.append({'algorithm': 'atp', 'job': command['job'], 'hosts': [h for h, _ in command['workers']], 'reports': result['reports'],
                         'failure': result['failure'], 'ps': {'host': command['ps'][0], 'report': result['ps_report']},
                         'level0': command['level0'], 'level1': command['level1']})
        return runs

    def run_rina(self, rina_hosts, applied):
        """One Rina job: INA racks are ring members through their ToRs, other racks' workers members of their own."""
        racks = [a['switch'] for a in applied['aggregation']]
        progress('Rina: %d workers × %d bytes, INA racks at %s' % (len(rina_hosts), self.options.tensor, ', '.join(racks) or 'none (a plain ring)'))
        placed = rina_placed(self.node, self.cli, applied, rina_hosts, self.options)
        return dict(run_workers(self.net, 'rina', placed, self.options.timeout, self.pids), hosts=[h.name for h in rina_hosts], inaRacks=racks)

    def run_omnireduce(self, algorithm, hosts):
        """One OmniReduce run: the switch variant first makes the INA switches run omnireduce.p4; then its job alone
        through the controller (its own id), whose report gives the agents' arguments."""
        if ina_program_of(algorithm):
            self.reprogram(ina_program_of(algorithm))
        spec = omnireduce_job_spec(self.options, algorithm, hosts, self.plan.ps_hosts[0] if algorithm == 'omnireduce' else None)
        applied = self.controller([self.write_job('job-%s.json' % algorithm, spec)])['jobs'][0]
        commands = omnireduce_commands(self.node, self.cli, applied, self.options)
        where = commands['info']['aggregator'] if commands else 'nowhere'
        progress('%s: %d workers × %d bytes, aggregated by %s' % (algorithm, len(hosts), self.options.tensor, where))
        return run_omnireduce(self.net, self.plan, algorithm, hosts, applied, commands, self.options, self.pids)

    def controller(self, job_paths):
        """`p4ina controller apply` on the topology as it is now (the INA program of the moment) and the jobs; its report."""
        doc = topology_json(self.plan, self.options, lambda n: '127.0.0.1:%d' % self.devices[n][1], lambda n: self.devices[n][0],
                            lambda s: self.program_files[s.kind], 'bmv2' if self.options.target == 'bmv2' else 'emulator')
        topo_path = os.path.join(self.dir, 'topology.json')
        with open(topo_path, 'w') as f:
            json.dump(doc, f, indent=2)
        argv = [self.node, self.cli, 'controller', 'apply', '--topology', topo_path, '--json']
        for path in job_paths:
            argv += ['--job', path]
        out = subprocess.run(argv, cwd=self.repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if out.returncode != 0:
            raise TestbedFailure('the controller failed (exit %d):\n%s' % (out.returncode, out.stderr.decode('utf8', 'replace').strip()))
        report = json.loads(out.stdout.decode('utf8').strip().splitlines()[-1])
        if self.options.verbose:
            sys.stderr.write(json.dumps(report, indent=2) + '\n')
        return report

    def apply_controller(self, switchml_hosts, atp_hosts, rina_hosts):
        """Pipelines, forwarding and the jobs; returns (SwitchML's aggregator address, the report's ATP jobs, its Rina job)."""
        jobs = []
        if switchml_hosts:
            jobs.append(self.write_job('job-switchml.json', switchml_job_spec(self.options, switchml_hosts)))
        if atp_hosts:
            jobs += [self.write_job('job-atp-%d.json' % spec['id'], spec) for spec in atp_job_specs(self.options, atp_hosts, self.plan.ps_hosts)]
        if rina_hosts:
            jobs.append(self.write_job('job-rina.json', rina_job_spec(self.options, rina_hosts)))
        report = self.controller(jobs)
        atp_applied = [j for j in report['jobs'] if j['algorithm'] == 'atp']
        rina_applied = next((j for j in report['jobs'] if j['algorithm'] == 'rina'), None)
        if not switchml_hosts:
            return None, atp_applied, rina_applied
        job = next(j for j in report['jobs'] if j['algorithm'] == 'switchml')
        if not job['aggregation']:
            raise TestbedFailure('no switch can aggregate SwitchML for %s: %s' % (', '.join(h.name for h in switchml_hosts), ' '.join(job['reasons'])))
        return job['aggregation'][0]['ip'], atp_applied, rina_applied

    def write_job(self, name, spec):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            json.dump(spec, f, indent=2)
        return path

    def keep(self):
        from mininet.cli import CLI
        progress('the network stays up; type exit to tear it down (logs and files in %s)' % self.dir)
        CLI(self.net)

    # --- teardown --------------------------------------------------------------------------
    def teardown(self):
        if self.net is not None:
            # Our switch processes first: net.stop() takes the links down before it stops switches.
            for sw in self.net.switches:
                if getattr(sw, 'stop_process', None):
                    sw.stop_process()
            try:
                self.net.stop()
            except Exception as err:  # noqa: BLE001 - the rest of the teardown must still run
                progress('net.stop(): %s' % err)
        self.delete_leftover_interfaces()
        if self.own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def delete_leftover_interfaces(self):
        """Interfaces with exactly the names this run gave (switch ports and bridges) that are still there."""
        if self.plan is None:
            return
        ours = set()
        for link in self.plan.links:
            ours.add('%s-eth%d' % (link.b, link.port_b))
            if not link.host_link:
                ours.add('%s-eth%d' % (link.a, link.port_a))
        ours.update(s.name for s in self.plan.switches if s.kind == 'bridge')
        listing = subprocess.run(['ip', '-o', 'link'], stdout=subprocess.PIPE).stdout.decode('utf8', 'replace')
        present = {line.split(':')[1].strip().split('@')[0] for line in listing.splitlines() if ':' in line}
        for name in sorted(ours & present):
            subprocess.run(['ip', 'link', 'del', name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
