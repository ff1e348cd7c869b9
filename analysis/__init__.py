"""Orchestration of tricksim: configuration, the block engine, statistics, studies.

Every study is a plain function returning pandas DataFrames; ``cli.py`` is a thin
layer over them.
"""
__version__ = "0.1.0"
