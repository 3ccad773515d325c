#!/usr/bin/env python3
"""run Mercurial's contrib/import-checker.py on revlogperf's modules

    importcheck.py CHECKER FILE...

The checker learns which dotted names are modules from the files it is
given, as it runs on Mercurial's own tree. Here it is also told
Mercurial's modules (of the Mercurial running this), so that ``from
mercurial.utils import stringutil`` reads as the module import it is, while
only revlogperf's files are checked.
"""

import importlib.util
import os
import pkgutil
import sys

import mercurial


def mercurial_modules():
    # a package is known by its __init__, as the checker names files
    names = {'mercurial.__init__'}
    for info in pkgutil.walk_packages(
        mercurial.__path__, 'mercurial.', onerror=lambda name: None
    ):
        names.add(info.name + '.__init__' if info.ispkg else info.name)
    return names


def main(argv):
    checker_path, files = argv[1], argv[2:]
    # the checker imports testparseutil, beside it in contrib/
    sys.path.insert(0, os.path.dirname(os.path.abspath(checker_path)))
    spec = importlib.util.spec_from_file_location('importchecker', checker_path)
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    local_modules = checker.populateextmods
    known = mercurial_modules()
    checker.populateextmods = lambda mods: local_modules(mods) | known
    return checker.main([checker_path] + files)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
