# readall.py - hg debugreadall REPO [--config ...]: run every read command on
# REPO, each dispatched as from the command line but in this one process
# (a damaged-revlog test runs hundreds); say nothing of a command that
# succeeds or fails with a Mercurial error naming the revlog, and show any
# other outcome: a traceback, or a message naming no revlog

import io
import re
import traceback

from mercurial import dispatch, registrar

try:
    from mercurial.main_script import request  # hg >= 7.2
except ImportError:
    request = dispatch.request

cmdtable = {}
command = registrar.command(cmdtable)

READS = [
    [b'log', b'-T', b'{rev}'],
    [b'log', b'-p'],
    [b'cat', b'-r', b'tip', b'big'],
    [b'verify', b'-q'],
    [b'debug-revlog-storage'],
    [b'perf::revlog-tip', b'-c'],
    [b'perf::revlog-sample', b'-m'],
    [b'perf::revlog-decompress', b'big'],
]
NAMES_A_REVLOG = re.compile(rb'00changelog|00manifest|big')


def run(args):
    """(exit status, output) of one command"""
    out = io.BytesIO()
    req = request(args, fin=io.BytesIO(), fout=out, ferr=out)
    try:
        status = dispatch.dispatch(req)
    except Exception:
        return 1, out.getvalue() + traceback.format_exc().encode()
    return status or 0, out.getvalue()


@command(b'debugreadall', [], b'REPO [--config ...]', norepo=True)
def debugreadall(ui, path, *extra):
    options = []
    for section, name, value in ui.walkconfig():
        if ui.configsource(section, name) == b'--config':
            options += [b'--config', b'%s.%s=%s' % (section, name, value)]
    for read in READS:
        status, output = run([b'-R', path] + read + options)
        name = b' '.join(read)
        if b'Traceback' in output:
            ui.writenoi18n(b'  %s: TRACEBACK\n' % name)
        elif status and not NAMES_A_REVLOG.search(output):
            lines = [l for l in output.splitlines() if not l.startswith(b' ')]
            ui.writenoi18n(b'  %s: %s\n' % (name, lines[-1] if lines else b''))
