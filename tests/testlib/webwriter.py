"""webwriter.py REPO: one hgweb application serves REPO while other
processes commit, strip and roll back between its requests; after each
step, its pages must be those a new hgweb without revlogperf serves, and
it must keep nothing of them once served

Pages: the tip's file, its diff and its annotation, and the log of the
file with patches: each reads file texts through the walk cache."""

import os
import subprocess
import sys
import wsgiref.util

PAGES = (
    '/raw-file/tip/s',
    '/raw-rev/tip',
    '/raw-diff/tip/s',
    '/annotate/tip/s?style=raw',
    '/log/tip/s?style=raw',
)

STEPS = (
    'echo one > s && hg commit -qAm one',
    'echo two >> s && hg commit -qm two',
    'hg debugstrip -q --no-backup -r tip && hg update -qC tip',
    'echo three >> s && hg commit -qm three',
    'echo four >> s && hg commit -qm four && hg rollback -q',
    'hg update -qC tip && echo five >> s && hg commit -qm five',
)


def serve(app, path):
    environ = {'PATH_INFO': path.split('?')[0]}
    if '?' in path:
        environ['QUERY_STRING'] = path.split('?')[1]
    wsgiref.util.setup_testing_defaults(environ)
    status = []
    body = b''.join(app(environ, lambda s, h: status.append(s)))
    return status[0].encode() + b'\n' + body


def application(repo, with_extension):
    from mercurial import extensions, hgweb, ui as uimod

    ui = uimod.ui.load()
    if with_extension:
        extensions.loadall(ui)
    return hgweb.hgweb(repo.encode(), baseui=ui)


def kept_between_requests(app):
    """does a repository the application holds keep a walk cache? (an
    idle worker must hold no texts, filelogs or maps)"""
    for cached in app._repos:
        if '_revlogperf_walk' in cached._repo.unfiltered().__dict__:
            return True
    return False


def main():
    repo = sys.argv[1]
    if sys.argv[2:] == ['core']:
        app = application(repo, False)
        sys.stdout.buffer.write(b''.join(serve(app, p) for p in PAGES))
        return
    app = application(repo, True)
    env = dict(os.environ)
    env['HGRCPATH'] = os.environ.get('CORE_HGRCPATH', '')
    for step in STEPS:
        # the writer does not load revlogperf: the reader must not care
        subprocess.check_call(step, shell=True, cwd=repo, env=env)
        served = b''.join(serve(app, p) for p in PAGES)
        if kept_between_requests(app):
            sys.exit('after %r: a request\'s texts outlived it' % step)
        core = subprocess.check_output(
            [sys.executable, __file__, repo, 'core'], env=env
        )
        if served != core:
            sys.exit('after %r: pages differ from core\'s' % step)
    print('%d steps: every page is core\'s' % len(STEPS))


if __name__ == '__main__':
    main()
