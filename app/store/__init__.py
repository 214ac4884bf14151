"""Persistent state (Qt-free): the solve history in SQLite."""
