"""write files whose revlog chunks take every storage form

usage: mkchunks.py DIR
- text.txt: compressible text (zlib ``x`` or zstd ``(`` chunks)
- random.bin: incompressible bytes (``u`` chunks)
- zero.bin: incompressible bytes starting with NUL (stored as is, ``\\0``)
- tiny.txt: too small to compress (``u``)
- big.txt: 300 KB of hex, so that its filelog gets a separate .d file
"""

import os
import random
import sys

out = sys.argv[1]
rng = random.Random(int(os.environ.get('MKCHUNKS_SEED', '1')))


def write(name, data):
    with open(os.path.join(out, name), 'wb') as fp:
        fp.write(data)


lines = [
    b'line %d of a text %d\n' % (i, rng.randrange(10**6)) for i in range(400)
]
write('text.txt', b''.join(lines))
write('random.bin', rng.randbytes(3000))
write('zero.bin', b'\0' + rng.randbytes(3000))
write('tiny.txt', b'%d\n' % rng.randrange(100))
write('big.txt', rng.randbytes(150 * 1024).hex().encode())
