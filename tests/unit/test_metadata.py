import os
import re
import subprocess
import sys

import hgext3rd.revlogperf as revlogperf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))


def test_setup_reads_version_without_importing():
    out = subprocess.check_output(
        [sys.executable, 'setup.py', '-q', '--version'], cwd=ROOT
    )
    assert out.decode().split()[-1] == revlogperf.__version__
    with open(os.path.join(ROOT, 'setup.py')) as fp:
        assert 'import hgext3rd' not in fp.read()


def test_testedwith_is_the_ci_matrix():
    with open(os.path.join(ROOT, 'Makefile')) as fp:
        matrix = [l for l in fp if l.startswith('MATRIX ?=')][0]
    assert revlogperf.testedwith.decode().split() == matrix.split()[2:]


def test_extension_exports_metadata():
    assert re.fullmatch(r'\d+\.\d+\.\d+', revlogperf.__version__)
    assert revlogperf.minimumhgversion == b'6.3'
    assert revlogperf.__doc__.startswith('faster, leaner revlog reads')
