"""cmdsession.py REPO < SCRIPT: one command server on REPO runs each line
of SCRIPT that starts with "hg " and prints its output; a line that starts
with "! " runs in a shell, as another process working on the repository"""

import os
import shlex
import struct
import subprocess
import sys


def read_channel(server):
    channel, length = struct.unpack('>cI', server.stdout.read(5))
    if channel in b'IL':  # the server asks for input: it has none
        return channel, b''
    return channel, server.stdout.read(length)


def run_command(server, args):
    data = b'\0'.join(args)
    server.stdin.write(b'runcommand\n' + struct.pack('>I', len(data)) + data)
    server.stdin.flush()
    while True:
        channel, data = read_channel(server)
        if channel in b'oe':
            sys.stdout.buffer.write(data)
        elif channel == b'r':
            status = struct.unpack('>i', data)[0]
            if status:
                sys.stdout.buffer.write(b'[%d]\n' % status)
            return


def main(repo):
    hg = os.environ.get('HG', 'hg')
    server = subprocess.Popen(
        [hg, 'serve', '--cmdserver', 'pipe', '-R', repo],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    read_channel(server)  # hello
    for line in sys.stdin:
        line = line.rstrip('\n')
        sys.stdout.flush()
        if line.startswith('hg '):
            args = [a.encode() for a in shlex.split(line)[1:]]
            run_command(server, args)
        elif line.startswith('! '):
            subprocess.run(line[2:], shell=True, cwd=repo, check=True)
        else:
            sys.exit('cmdsession.py: what is %r?' % line)
        sys.stdout.buffer.flush()
    server.stdin.close()
    sys.exit(server.wait())


if __name__ == '__main__':
    main(sys.argv[1])
