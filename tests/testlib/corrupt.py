"""damage a revlog file the ways a disk, a crash or a person can

usage: corrupt.py KIND PATH
  truncate-entry  cut the file in the middle of an index entry
  empty           leave the file empty
  cut-data        cut the file to a third (index entries point past its end)
  bad-version     write an unknown revlog version in the header
  directory       replace the file with a directory
  unreadable      take every permission away (mode 000)
"""

import os
import sys

kind, path = sys.argv[1], sys.argv[2]
with open(path, 'rb') as fp:
    data = fp.read()
if kind == 'truncate-entry':
    # 64-byte entries: end 7 bytes into one
    data = data[: (len(data) // 2) // 64 * 64 + 7]
elif kind == 'empty':
    data = b''
elif kind == 'cut-data':
    data = data[: len(data) // 3]
elif kind == 'bad-version':
    data = b'\x00\x00\xff\xff' + data[4:]
elif kind == 'directory':
    os.unlink(path)
    os.mkdir(path)
    sys.exit(0)
elif kind == 'unreadable':
    os.chmod(path, 0)
    sys.exit(0)
else:
    sys.exit('unknown damage: %s' % kind)
with open(path, 'wb') as fp:
    fp.write(data)
