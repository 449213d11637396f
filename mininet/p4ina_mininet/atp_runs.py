"""Running ATP jobs at once on the testbed: per job a parameter server
(`p4ina agent atp-ps`) and its workers (`p4ina agent atp-worker`), each in
its host's namespace over the kernel's UDP (host.popen).

Every PS listens before any worker starts (a worker's first packets would
otherwise meet a closed port). Agents that read IPv4 CE (--ecn-ip) get their
ATP datagrams sent ECN-capable first (ECT_RULES). Jobs are independent: a worker that fails
stops its own job (the others would only wait for its share), not the
others; a job whose PS exits early fails too. Once a job's workers are done
its PS gets SIGTERM and prints its report (its fallback work). One deadline
covers every job; whatever is still running then is stopped by PID.
"""
import os
import select
import subprocess
import time

from .agents import stop_all
from .lifeline import child_popen_kwargs

PS_READY_S = 30.0
PS_REPORT_S = 10.0
NFT_TIMEOUT_S = 10

# Agents that read IPv4 CE (--ecn-ip, with --ecn) send their ATP datagrams ECN-capable: hops that follow
# RFC 3168 (atp.p4's IPv4 marking, Linux's RED) mark CE only on ECT packets. Node's dgram cannot set the TOS
# byte, so nftables sets ECT(0) in the host's namespace as the datagrams leave (ATP's port block, 0xBF00-0xBF0F).
ECT_RULES = """table ip p4ina_ect {
  chain out { type filter hook output priority 0; policy accept; udp dport 48896-48911 ip ecn set ect0; }
}
"""


class _Job:
    def __init__(self, command):
        self.command = command
        self.ps = None
        self.ps_out = b''
        self.workers = []
        self.outputs = []
        self.failure = None
        self.done = False


def _first_line(proc, deadline):
    """Reads the PS's first stdout line ({"listening": …}) straight from the pipe (communicate() reads the rest
    from the same descriptor later); (bytes read, None) or (None, why)."""
    fd = proc.stdout.fileno()
    got = b''
    while b'\n' not in got:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, 'did not listen within %.0f s' % PS_READY_S
        ready, _, _ = select.select([fd], [], [], min(left, 0.2))
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                return None, 'exited with code %s: %s' % (proc.wait(), _err_tail(proc))
            got += chunk
    return got, None


def _err_tail(proc, lines=3):
    try:
        err = proc.stderr.read() if proc.stderr and not proc.stderr.closed else b''
    except (OSError, ValueError):
        err = b''
    return ' / '.join(err.decode('utf8', 'replace').strip().splitlines()[-lines:]) or 'no output'


def _poll(job):
    """Collects finished workers; a failed worker or a PS gone early fails the job and stops its workers."""
    for i, (name, proc) in enumerate(job.workers):
        if job.outputs[i] is not None or proc.poll() is None:
            continue
        out, err = proc.communicate()
        job.outputs[i] = out.decode('utf8', 'replace')
        if proc.returncode != 0 and job.failure is None:
            last = err.decode('utf8', 'replace').strip().splitlines()[-5:]
            job.failure = '%s (rank %d) exited with code %d: %s' % (name, i, proc.returncode, ' | '.join(last))
    if job.failure is None and job.ps.poll() is not None:
        job.failure = 'the parameter server on %s exited with code %s before its workers were done: %s' % (job.command['ps'][0], job.ps.returncode, _err_tail(job.ps))
    if job.failure is not None or all(o is not None for o in job.outputs):
        stop_all([p for _, p in job.workers])
        job.done = True


def _finish_ps(job):
    """SIGTERM: the PS stops serving and prints its report as its last line."""
    proc = job.ps
    if proc is None:
        return
    if proc.poll() is None:
        proc.terminate()
    try:
        out, err = proc.communicate(timeout=PS_REPORT_S)
    except Exception:  # noqa: BLE001 - a PS that does not stop is killed; its report is lost
        proc.kill()
        out, err = proc.communicate()
    job.ps_out += out
    if proc.returncode != 0 and job.failure is None:
        job.failure = 'the parameter server on %s exited with code %s: %s' % (job.command['ps'][0], proc.returncode, err.decode('utf8', 'replace').strip()[-300:])


def _send_ect(net, jobs):
    """ECT(0) on the ATP datagrams of every host whose agents read IPv4 CE; a job on a host where that fails fails."""
    failed = {}
    for job in jobs:
        hosts = [host for host, argv in [job.command['ps']] + job.command['workers'] if '--ecn-ip' in argv]
        for host in hosts:
            if host not in failed:
                proc = net.get(host).popen(['nft', '-f', '-'], stdin=subprocess.PIPE)
                _, err = proc.communicate(ECT_RULES.encode('ascii'), timeout=NFT_TIMEOUT_S)
                failed[host] = None if proc.returncode == 0 else err.decode('utf8', 'replace').strip()
            if failed[host] is not None and job.failure is None:
                job.failure = '--ecn needs nftables in the hosts to send ATP packets ECN-capable (apt-get install nftables): %s: %s' % (host, failed[host])
                job.done = True


def run_atp_jobs(net, commands, timeout_s, started_pids):
    """commands: atp_jobs.atp_commands(...) per job. Returns per job {job, reports, ps_report, failure}."""
    jobs = [_Job(c) for c in commands]
    try:
        _send_ect(net, jobs)
        for job in jobs:
            if job.done:
                continue
            host, argv = job.command['ps']
            # A lifeline to the runner: the agent stops by itself if the runner dies without its teardown.
            job.ps = net.get(host).popen(argv, **child_popen_kwargs())
            started_pids.append(job.ps.pid)
        ready_by = time.monotonic() + PS_READY_S
        for job in jobs:
            if job.done:
                continue
            head, why = _first_line(job.ps, ready_by)
            if why:
                job.failure = 'the parameter server on %s %s' % (job.command['ps'][0], why)
                job.done = True
            else:
                job.ps_out = head
        for job in jobs:
            if job.done:
                continue
            for host, argv in job.command['workers']:
                proc = net.get(host).popen(argv, **child_popen_kwargs())
                started_pids.append(proc.pid)
                job.workers.append((host, proc))
            job.outputs = [None] * len(job.workers)
        deadline = time.monotonic() + timeout_s
        while not all(job.done for job in jobs):
            for job in jobs:
                if not job.done:
                    _poll(job)
            if time.monotonic() > deadline:
                for job in jobs:
                    if not job.done:
                        stuck = [name for (name, proc), out in zip(job.workers, job.outputs) if out is None]
                        stop_all([p for _, p in job.workers])
                        job.failure = 'no result within %d s (still running: %s)' % (timeout_s, ', '.join(stuck))
                        job.done = True
                break
            time.sleep(0.05)
        for job in jobs:
            _finish_ps(job)
        return [{'job': job.command['job'], 'reports': [o or '' for o in job.outputs] if job.failure is None else [],
                 'ps_report': job.ps_out.decode('utf8', 'replace'), 'failure': job.failure} for job in jobs]
    finally:
        procs = [p for job in jobs for p in ([job.ps] if job.ps else []) + [w for _, w in job.workers]]
        stop_all(procs)
        for proc in procs:
            for stream in (proc.stdout, proc.stderr):
                if stream:
                    stream.close()
