"""Queries compiled once and run again with other values: the reads asked after every deal.

Django builds and compiles a query's SQL anew each time it runs it: for the grouped queries
the reads make after each deal saved (the range's fingerprint, tonight's aggregation) that
costs more than running them. A :class:`Prepared` query is built once per database
connection with stand-in values (sentinels), and run again with the SQL it gave, the
stand-ins' parameters replaced; its rows come back as ``values()`` gives them (Django's own
converters applied), or as model instances (``objects``: the access checks and the evening
page, asked by every request of a table), and the connection logs it as any other query.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators


@dataclass(frozen=True)
class _Compiled:
    connection: Any  # the connection it was compiled for (one per thread)
    compiler: Any
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[tuple[int, bool], ...], ...]  # per stand-in: (position, adapted date)
    names: tuple[str, ...]


def _adapted(value: object, connection: Any) -> object:
    """A date or a moment as the database's parameters carry it (text on SQLite)."""
    if isinstance(value, dt.datetime):
        return connection.ops.adapt_datetimefield_value(value)
    if isinstance(value, dt.date):
        return connection.ops.adapt_datefield_value(value)
    return value


class Prepared:
    """A ``values()`` query built by ``build(*sentinels)``; ``rows(*values)`` runs it with
    ``values`` in place of the sentinels. Each sentinel must be a value no other parameter of
    the query has (an id or a date no club uses)."""

    def __init__(self, build: Callable[..., QuerySet[Any]], *sentinels: object) -> None:
        self.build = build
        self.sentinels = sentinels
        self._compiled: dict[int, _Compiled] = {}
        self._lock = threading.Lock()

    def _compile(self, connection: Any) -> _Compiled:
        query = self.build(*self.sentinels).query
        compiler = query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        slots = []
        for sentinel in self.sentinels:
            adapted = _adapted(sentinel, connection)
            found = []
            for position, param in enumerate(params):
                if type(param) is type(sentinel) and param == sentinel:
                    found.append((position, False))
                elif adapted is not sentinel and type(param) is type(adapted) and param == adapted:
                    found.append((position, True))
            if not found:
                raise ValueError(f"{sentinel!r} is not among the query's parameters")
            slots.append(tuple(found))
        names = (*query.extra_select, *query.values_select, *query.annotation_select)
        return _Compiled(connection, compiler, sql, tuple(params), tuple(slots), names)

    def rows(self, *values: object) -> list[dict[str, Any]]:
        """The query's rows with these values, as ``values()`` gives them (one query)."""
        names, rows = self._run(values)
        return [dict(zip(names, row, strict=True)) for row in rows]

    def tuples(self, *values: object) -> list[tuple[Any, ...]]:
        """The query's rows with these values, as ``values_list()`` gives them (one query)."""
        return [tuple(row) for row in self._run(values)[1]]

    def raw_rows(self, *values: object) -> list[dict[str, Any]]:
        """As ``rows``, Django's converters skipped (see ``raw_tuples``)."""
        compiled, rows = self._rows(values)
        return [dict(zip(compiled.names, row, strict=True)) for row in rows]

    def raw_tuples(self, *values: object) -> list[tuple[Any, ...]]:
        """The query's rows as the database driver gives them, Django's converters skipped
        (one query): for columns read as plain numbers, text and truth values only (SQLite
        gives 0 and 1 for booleans, floats for decimals; JSON comes as text)."""
        return self._rows(values)[1]

    def objects(self, *values: object) -> list[Any]:
        """The query's rows as model instances, as iterating the queryset gives them: its
        ``select_related`` objects and annotations set (one query). Related objects the
        queryset knew (``evening.games``: each game's evening) are not: set them."""
        compiled, rows = self._rows(values)
        compiler = compiled.compiler
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        init_list = [column[0].target.attname for column in select[start:end]]
        alias = compiled.connection.alias
        populators = get_related_populators(klass_info, select, alias)
        annotations = compiler.annotation_col_map or {}
        model = klass_info["model"]
        found = []
        for row in compiler.results_iter([rows]):
            instance = model.from_db(alias, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            for name, position in annotations.items():
                setattr(instance, name, row[position])
            found.append(instance)
        return found

    def _run(self, values: tuple[object, ...]) -> tuple[tuple[str, ...], Any]:
        compiled, rows = self._rows(values)
        return compiled.names, compiled.compiler.results_iter([rows])

    def _rows(self, values: tuple[object, ...]) -> tuple[_Compiled, list[Any]]:
        connection = connections["default"]
        compiled = self._compiled.get(id(connection))
        if compiled is None or compiled.connection is not connection:
            compiled = self._compile(connection)
            with self._lock:
                if len(self._compiled) >= 32:  # connections gone (tests, the benchmark)
                    self._compiled.clear()
                self._compiled[id(connection)] = compiled
        params = list(compiled.params)
        for slots, value in zip(compiled.slots, values, strict=True):
            for position, adapted in slots:
                params[position] = _adapted(value, connection) if adapted else value
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        return compiled, fetched
