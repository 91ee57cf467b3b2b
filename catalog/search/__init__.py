"""The card query language: grammar (lark), field table, compiler to Django ``Q`` objects."""
from django.db.backends.signals import connection_created

from .compiler import CompiledQuery, compile_query
from .errors import QueryError
from .fields import FIELDS, FIELDS_BY_NAME, FieldSpec, lookup_field
from .grammar import MAX_DEPTH, MAX_QUERY_LENGTH, parse
from .regex import install_sqlite_regexp, on_connection_created

# SQLite: REGEXP through RE2 on every new connection (see regex.py); card_search also checks the
# current connection, for connections opened before this module was imported.
connection_created.connect(on_connection_created, dispatch_uid="catalog.search.re2")

__all__ = [
    "FIELDS", "FIELDS_BY_NAME", "MAX_DEPTH", "MAX_QUERY_LENGTH", "CompiledQuery", "FieldSpec", "QueryError",
    "compile_query", "install_sqlite_regexp", "lookup_field", "parse",
]
