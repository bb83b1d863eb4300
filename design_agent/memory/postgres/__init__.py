"""The PostgreSQL side of the memory: a team's server behind the same `Memory` interface.

Imported only for a postgresql:// URL (url.py): the SQLite path of every command loads
none of it, nor psycopg. `connection.py` is the one module that imports psycopg and
psycopg_pool; `schema.py` and `migrate.py` keep the schema's numbered history (the same
version numbers as SQLite's); `search.py` is full-text search on tsvector columns.
"""
