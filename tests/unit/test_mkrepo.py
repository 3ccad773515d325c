"""contrib/mkrepo.py says where it is when no progress bar shows"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load_mkrepo():
    path = os.path.join(HERE, '..', '..', 'contrib', 'mkrepo.py')
    spec = importlib.util.spec_from_file_location('mkrepo', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_heartbeat_prints_a_line_when_due(capsys):
    heartbeat = load_mkrepo().Heartbeat(3000, every=0.0)
    heartbeat.enabled = True  # as on a pipe
    heartbeat.beat(1000)
    heartbeat.beat(2000)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(',')[0].strip() for line in lines] == [
        '1000 of 3000 changesets',
        '2000 of 3000 changesets',
    ]


def test_heartbeat_waits_its_interval(capsys):
    heartbeat = load_mkrepo().Heartbeat(3000, every=3600.0)
    heartbeat.enabled = True
    heartbeat.beat(1000)
    assert capsys.readouterr().out == ''
