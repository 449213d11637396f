"""Running ATP jobs at once on the testbed: per job a parameter server
(`p4ina agent atp-ps`) and its workers (`p4ina agent atp-worker`), each in
its host's namespace over the kernel's UDP (host.popen).

Every PS listens before any worker starts (a worker's first packets would
otherwise meet a closed port). Jobs are independent: a worker that fails
stops its own job (the others would only wait for its share), not the
others; a job whose PS exits early fails too. Once a job's workers are done
its PS gets SIGTERM and prints its report (its fallback work). One deadline
covers every job; whatever is still running then is stopped by PID.
"""
import os
import select
import time

from .agents import stop_all
from .lifeline import child_popen_kwargs

PS_READY_S = 30.0
PS_REPORT_S = 10.0


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


def run_atp_jobs(net, commands, timeout_s, started_pids):
    """commands: atp_jobs.atp_commands(...) per job. Returns per job {job, reports, ps_report, failure}."""
    jobs = [_Job(c) for c in commands]
    try:
        for job in jobs:
            host, argv = job.command['ps']
            # A lifeline to the runner: the agent stops by itself if the runner dies without its teardown.
            job.ps = net.get(host).popen(argv, **child_popen_kwargs())
            started_pids.append(job.ps.pid)
        ready_by = time.monotonic() + PS_READY_S
        for job in jobs:
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
