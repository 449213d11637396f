"""The P4 programs of a run: which one the INA switches need for each
algorithm's run, and each program's files for the switches and the
controller's topology file — compiled by `p4ina compile` into the run's
directory, or, with --target bmv2, p4c's outputs the user gave.

omnireduce.p4 is compiled for the switch block (-DOMNIREDUCE_BLOCK) and
switchml.p4 for the values per packet (-DSWITCHML_ELEMENTS, --elements);
the controller reads each back from its P4Info and checks it against the job's.
"""
import os
import subprocess

from .options import first_ina_program

# The INA switches' program each algorithm's run needs; the others need only forwarding, which every program does.
INA_PROGRAMS = {'switchml': 'switchml', 'atp': 'atp', 'rina': 'rina_tor', 'omnireduce-switch': 'omnireduce'}
# --target bmv2: the option that names p4c's outputs of each program.
BMV2_OPTIONS = {'switchml': 'bmv2_switchml', 'atp': 'bmv2_atp', 'rina_tor': 'bmv2_rina', 'omnireduce': 'bmv2_omnireduce', 'forward': 'bmv2_forward'}


class ProgramError(Exception):
    """A program that did not compile, or p4c's outputs that were not given."""


def ina_program_of(algorithm):
    """The program an algorithm's run needs on the INA switches (p4/NAME.p4), or None when forwarding will do."""
    return INA_PROGRAMS.get(algorithm)


class Programs:
    def __init__(self, node, cli, repo, directory, options):
        self.node = node
        self.cli = cli
        self.repo = repo
        self.dir = directory
        self.options = options
        self.cache = {}
        self.first_ina = first_ina_program(options.job)

    def files(self, name):
        """{'config', 'p4info'} of p4/NAME.p4, made once per run."""
        if name not in self.cache:
            self.cache[name] = self._given(name) if self.options.target == 'bmv2' else self._compiled(name)
        return self.cache[name]

    def _given(self, name):
        given = getattr(self.options, BMV2_OPTIONS[name])
        if not given:
            flag = '--' + BMV2_OPTIONS[name].replace('_', '-')
            # Legacy P4 switches can be Linux bridges instead.
            instead = ', or --legacy bridge --spine bridge' if name == 'forward' else ''
            raise ProgramError('--target bmv2 needs %s JSON,P4INFO (p4c-bm2-ss outputs of p4/%s.p4; see README%s)' % (flag, name, instead))
        return {'config': os.path.abspath(given[0]), 'p4info': os.path.abspath(given[1])}

    def _compiled(self, name):
        defines = self._defines(name)
        out_dir = os.path.join(self.dir, name)
        os.makedirs(out_dir, exist_ok=True)
        out = subprocess.run([self.node, self.cli, 'compile', os.path.join(self.repo, 'p4', '%s.p4' % name)] + defines + ['-o', out_dir],
                             cwd=self.repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if out.returncode != 0:
            raise ProgramError('p4/%s.p4 did not compile:\n%s' % (name, out.stderr.decode('utf8', 'replace')))
        return {'config': os.path.join(out_dir, '%s.ir.json' % name), 'p4info': os.path.join(out_dir, '%s.p4info.txtpb' % name)}

    def _defines(self, name):
        """`p4ina compile`'s -D arguments for p4/NAME.p4: what the run's jobs need its sizes to be."""
        if name == 'omnireduce':
            return ['-D', 'OMNIREDUCE_BLOCK=%d' % self.options.omnireduce_switch_block]
        if name == 'switchml':
            return ['-D', 'SWITCHML_ELEMENTS=%d' % self.options.switchml_elements]
        return []
