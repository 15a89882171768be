"""The operators' management commands: scoring, exporting and importing sheets and clubs.

Owns ``commands/`` (each a thin command: parse the arguments, call one wing, print) and
``command_io`` (what the commands share: ``--lang``, reading a sheet, writing a file out, the
exit status of an invalid file). The benchmark and the load test are not here: they are a
development app, ``tools/bench``.

The commands may import every wing: ``exchange``, ``reads``, ``services``, ``scoring``,
``models`` and ``server``. A command never imports another command: what they share lives in
``command_io``. Nothing in the serving code imports this package: manage.py and the tests do.
"""
