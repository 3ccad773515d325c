import os

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def read_metadata():
    """the values of metadata.py, read without importing the package"""
    meta = {}
    path = os.path.join(HERE, 'hgext3rd', 'revlogperf', 'metadata.py')
    with open(path) as fp:
        exec(fp.read(), meta)
    return meta


def read_readme():
    with open(os.path.join(HERE, 'README.md'), encoding='utf-8') as fp:
        return fp.read()


setup(
    name='hg-revlogperf',
    version=read_metadata()['__version__'],
    description='Mercurial extension: faster, leaner revlog reads, measured',
    long_description=read_readme(),
    long_description_content_type='text/markdown',
    license='GPL-2.0-or-later',
    packages=find_packages(include=['hgext3rd', 'hgext3rd.*']),
    python_requires='>=3.8',
    install_requires=['mercurial>=6.3', 'zstandard'],
    extras_require={'test': ['pytest', 'hypothesis']},
    classifiers=[
        'Environment :: Plugins',
        'Programming Language :: Python :: 3',
        'Topic :: Software Development :: Version Control :: Mercurial',
    ],
)
