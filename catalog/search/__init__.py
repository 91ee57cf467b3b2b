"""The card query language: grammar (lark), field table, compiler to Django ``Q`` objects."""
from .compiler import CompiledQuery, compile_query
from .errors import QueryError
from .fields import FIELDS, FIELDS_BY_NAME, FieldSpec, lookup_field
from .grammar import MAX_DEPTH, MAX_QUERY_LENGTH, parse

__all__ = [
    "FIELDS", "FIELDS_BY_NAME", "MAX_DEPTH", "MAX_QUERY_LENGTH", "CompiledQuery", "FieldSpec", "QueryError",
    "compile_query", "lookup_field", "parse",
]
