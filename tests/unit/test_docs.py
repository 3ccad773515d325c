"""every option is documented where users look, and nothing else is

``hg help revlogperf`` (the package docstring) is the reference: each
registered option appears there in an hgrc example with its default, and
the README names the same options, and it and doc/ name no other and
state their defaults as registered.
"""

import glob
import os
import re

import hgext3rd.revlogperf as revlogperf
from hgext3rd.revlogperf import configitems

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


def registered():
    return {name.decode() for name in configitems.configtable[b'revlogperf']}


def test_help_shows_every_option_in_an_hgrc_example():
    documented = set(re.findall(r'^  ([a-z-]+) = ', revlogperf.__doc__, re.M))
    assert documented == registered()


def test_help_gives_every_default():
    for name in registered():
        item = configitems.configtable[b'revlogperf'][name.encode()]
        example = re.search(
            r'# ([^\n]*)\n  %s = ' % re.escape(name), revlogperf.__doc__
        )
        assert example and 'default' in example.group(1), name
        assert item.default is not None


def read(path):
    with open(os.path.join(ROOT, path), encoding='utf-8') as fp:
        return fp.read()


def user_docs():
    docs = ['README.md'] + sorted(
        os.path.relpath(p, ROOT)
        for p in glob.glob(os.path.join(ROOT, 'doc', '*.md'))
    )
    return {path: read(path) for path in docs}


def test_readme_names_the_same_options():
    named = set(re.findall(r'revlogperf\.([a-z][a-z-]+)', read('README.md')))
    assert named == registered()


def test_doc_names_registered_options_only():
    for path, text in user_docs().items():
        named = set(re.findall(r'revlogperf\.([a-z][a-z-]+)', text))
        assert named <= registered(), path


# "`revlogperf.mmap-data-budget` files (default 64)": a default stated
# within a sentence of the option's name
STATED_DEFAULT = re.compile(
    r'`revlogperf\.([a-z-]+)`[^`(]{0,40}\(default:? ([^,;)]+)'
)


def test_stated_defaults_are_the_registered_ones():
    stated = []
    for path, text in user_docs().items():
        for name, value in STATED_DEFAULT.findall(text):
            item = configitems.configtable[b'revlogperf'][name.encode()]
            default = item.default
            if isinstance(default, bytes):
                default = default.decode()
            assert value.strip() == str(default), (path, name)
            stated.append(name)
    # the README states the defaults of the sizes and the budget
    assert {
        'mmap-index-threshold',
        'mmap-data-threshold',
        'mmap-data-budget',
        'walk-cache',
    } <= set(stated)


def test_readme_stays_short():
    assert len(read('README.md').splitlines()) <= 160
