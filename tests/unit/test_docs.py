"""every option is documented where users look, and nothing else is

``hg help revlogperf`` (the package docstring) is the reference: each
registered option appears there in an hgrc example with its default, and
the README names the same options.
"""

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


def test_readme_names_the_same_options():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as fp:
        readme = fp.read()
    named = set(re.findall(r'revlogperf\.([a-z][a-z-]+)', readme))
    assert named == registered()
