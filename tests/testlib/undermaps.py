#!/usr/bin/env python3
"""run a command that writes a repository while a reader holds its revlogs
mapped, and report how the reader ended

  undermaps.py REPO FILE -- COMMAND...   the reader maps, then COMMAND runs
  undermaps.py REPO FILE --during -- COMMAND...
                                         COMMAND makes the reader map, from a
                                         hook running "undermaps.py --signal"
  undermaps.py --signal                  (in that hook) make the reader map
                                         now and wait until it has

The reader is tests/testlib/holdmaps.py; it reads every entry again once
COMMAND has ended. A reader killed by a signal is reported by name.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 60


def wait_for(path, proc=None):
    deadline = time.time() + TIMEOUT
    while not os.path.exists(path):
        if proc is not None and proc.poll() is not None:
            return False
        if time.time() > deadline:
            sys.exit('undermaps: timed out waiting for %s' % path)
        time.sleep(0.01)
    return True


def touch(path):
    open(path, 'w').close()


def signal_reader():
    syncdir = os.environ['UNDERMAPS_SYNC']
    touch(os.path.join(syncdir, 'map'))
    wait_for(os.path.join(syncdir, 'mapped'))


def run(repo, path, during, command):
    with tempfile.TemporaryDirectory(prefix='undermaps-') as syncdir:
        run_with(syncdir, repo, path, during, command)


def run_with(syncdir, repo, path, during, command):
    reader = subprocess.Popen(
        [
            'hg',
            '-R',
            repo,
            '--config',
            'extensions.holdmaps=%s' % os.path.join(HERE, 'holdmaps.py'),
            'debugholdmaps',
            syncdir,
            path,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    if not during:
        touch(os.path.join(syncdir, 'map'))
        wait_for(os.path.join(syncdir, 'mapped'), reader)
    env = {**os.environ, 'UNDERMAPS_SYNC': syncdir}
    status = subprocess.call(command, env=env)
    print('writer: %s' % ('exit 0' if status == 0 else 'failed'))
    touch(os.path.join(syncdir, 'map'))  # the hook may not have run
    touch(os.path.join(syncdir, 'go'))
    try:
        output, _err = reader.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        reader.kill()
        sys.exit('undermaps: reader hung')
    sys.stdout.write(output.decode())
    if reader.returncode < 0:
        print('reader: killed by %s' % signal.Signals(-reader.returncode).name)
    else:
        print('reader: exit %d' % reader.returncode)


def main(argv):
    if argv == ['--signal']:
        return signal_reader()
    dashes = argv.index('--')
    options, command = argv[:dashes], argv[dashes + 1 :]
    during = '--during' in options
    repo, path = [o for o in options if o != '--during']
    sys.stdout.flush()
    run(repo, path, during, command)


if __name__ == '__main__':
    main(sys.argv[1:])
