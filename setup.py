import ast
import os

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def read_version():
    """the extension's ``__version__``, read without importing it (it
    imports Mercurial)"""
    path = os.path.join(HERE, 'hgext3rd', 'revlogperf', '__init__.py')
    with open(path) as fp:
        tree = ast.parse(fp.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            if getattr(node.targets[0], 'id', None) == '__version__':
                return ast.literal_eval(node.value)
    raise SystemExit('no __version__ in %s' % path)


def read_readme():
    with open(os.path.join(HERE, 'README.md'), encoding='utf-8') as fp:
        return fp.read()


setup(
    name='hg-revlogperf',
    version=read_version(),
    description='Mercurial extension: faster, leaner revlog reads, measured',
    long_description=read_readme(),
    long_description_content_type='text/markdown',
    author='The revlogperf developers',
    # an SPDX expression: setuptools deprecates license classifiers
    license='GPL-2.0-or-later',
    license_files=['LICENSE'],
    packages=find_packages(include=['hgext3rd', 'hgext3rd.*']),
    # tracemalloc.reset_peak (perf/tasks.py); make check runs vermin
    python_requires='>=3.9',
    # no Mercurial: the extension runs in the Mercurial that loads it (a
    # distribution's, a venv's), and pip must not install a second one
    # beside it; zstandard reads zstd repositories where it has no zstd
    install_requires=['zstandard'],
    extras_require={
        'test': ['pytest', 'hypothesis'],
        'mercurial': ['mercurial>=6.3'],
    },
    classifiers=[
        'Development Status :: 4 - Beta',
        'Environment :: Plugins',
        'Intended Audience :: Developers',
        'Intended Audience :: System Administrators',
        'Operating System :: POSIX',
        'Programming Language :: Python :: 3',
        'Programming Language :: Python :: 3 :: Only',
        # the one CI runs
        'Programming Language :: Python :: 3.11',
        'Topic :: Software Development :: Version Control :: Mercurial',
    ],
)
