"""contrib/bench_decompress.py, short: it finds revlogperf's dispatcher on
the revlog it times, as a long read would give it one"""

import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRIB = os.path.join(HERE, '..', '..', 'contrib')


def test_times_the_dispatcher_against_core(tmp_path, capsys):
    repo = tmp_path / 'repo'
    subprocess.run(
        [sys.executable, os.path.join(CONTRIB, 'mkrepo.py'), str(repo)]
        + ['--changesets', '60', '--files', '10', '-q'],
        check=True,
    )
    path = os.path.join(CONTRIB, 'bench_decompress.py')
    spec = importlib.util.spec_from_file_location('bench_decompress', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main([str(repo), '-m', '--repeats', '1'])
    out = capsys.readouterr().out
    assert 'revlogperf / core' in out
