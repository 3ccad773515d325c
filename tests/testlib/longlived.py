"""longlived.py cmdserver|hgweb REPO COUNT BUDGET: a long-lived process
serving COUNT commands (a command server) or pages (hgweb) on REPO, once
with revlogperf and once without; says whether the peak of its open file
descriptors stays within revlogperf's budget plus what core holds"""

import os
import struct
import subprocess
import sys
import wsgiref.util


def open_fds(pid='self'):
    return len(os.listdir('/proc/%s/fd' % pid))


def commands(repo, count):
    """``hg cat`` of every file, at every revision, round and round"""
    files = sorted(
        f for f in os.listdir(repo) if not f.startswith('.')
    )  # a flat working copy
    for i in range(count):
        path = files[i % len(files)].encode()
        yield [b'cat', b'-r', b'%d' % (i % 2), b'path:' + path]


def cmdserver_peak(repo, count, extra):
    """the peak of the command server's descriptors over ``count`` commands"""
    hg = os.environ.get('HG', 'hg')
    server = subprocess.Popen(
        [hg, 'serve', '--cmdserver', 'pipe', '-R', repo] + extra,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    read_channel(server)  # hello
    peak = 0
    for args in commands(repo, count):
        server.stdin.write(b'runcommand\n')
        data = b'\0'.join(args)
        server.stdin.write(struct.pack('>I', len(data)) + data)
        server.stdin.flush()
        while True:
            channel, data = read_channel(server)
            if channel == b'r':
                if struct.unpack('>i', data)[0] != 0:
                    sys.exit('command failed: %r' % args)
                break
        peak = max(peak, open_fds(server.pid))
    server.stdin.close()
    server.wait()
    return peak


def read_channel(server):
    channel, length = struct.unpack('>cI', server.stdout.read(5))
    return channel, server.stdout.read(length)


def hgweb_peak(repo, count, with_extension):
    """the peak of this process's descriptors over ``count`` hgweb pages"""
    from mercurial import extensions, hgweb, ui as uimod

    ui = uimod.ui.load()
    if with_extension:
        extensions.loadall(ui)
    app = hgweb.hgweb(repo.encode(), baseui=ui)
    peak = 0
    for args in commands(repo, count):
        _cat, _r, rev, path = args
        path = path[len(b'path:') :]
        environ = {
            'PATH_INFO': '/raw-file/%s/%s' % (rev.decode(), path.decode())
        }
        wsgiref.util.setup_testing_defaults(environ)
        status = []
        body = b''.join(app(environ, lambda s, h: status.append(s)))
        if not status[0].startswith('200') or not body:
            sys.exit('%s: %s' % (environ['PATH_INFO'], status[0]))
        peak = max(peak, open_fds())
    return peak


def main():
    mode, repo, count, budget = sys.argv[1:5]
    count, budget = int(count), int(budget)
    if mode == 'hgweb-child':
        print(hgweb_peak(repo, count, sys.argv[5] == 'with'))
        return
    if mode == 'cmdserver':
        core = cmdserver_peak(
            repo, count, ['--config', 'extensions.revlogperf=!']
        )
        ext = cmdserver_peak(repo, count, [])
    else:
        peaks = {}
        for config in ('without', 'with'):
            out = subprocess.check_output(
                [
                    sys.executable,
                    __file__,
                    'hgweb-child',
                    repo,
                    str(count),
                    str(budget),
                    config,
                ]
            )
            peaks[config] = int(out)
        core, ext = peaks['without'], peaks['with']
    if ext <= core + budget:
        print(
            '%s, %d requests: peak descriptors within the budget plus '
            "core's" % (mode, count)
        )
    else:
        print(
            '%s, %d requests: peak %d descriptors, core %d + budget %d'
            % (mode, count, ext, core, budget)
        )


if __name__ == '__main__':
    main()
