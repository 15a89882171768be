"""The management commands and the machinery behind the benchmark and the load test.

Owns ``commands/`` (each a thin command: parse the arguments, call one wing, print),
``command_io`` (what the commands share: ``--lang``, reading a sheet, writing a file out, the
exit status of an invalid file) and ``bench/`` (the benchmark and load-test machinery).

The commands may import every wing: ``exchange``, ``reads``, ``services``, ``scoring``,
``models`` and ``server``, and ``bench`` for the two benchmarks. A command never imports
another command: what they share lives in ``command_io``. Nothing in the serving code
imports this package: manage.py and the tests do.
"""
