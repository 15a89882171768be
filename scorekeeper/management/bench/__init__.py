"""The benchmark and load-test machinery, apart from the code that serves requests.

Used only by the ``benchmark`` and ``loadtest`` management commands and their tests.
"""
