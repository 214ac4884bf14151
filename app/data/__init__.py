"""The user's own data files: read with caps (`files`), described to the model without the data
itself (`describe`), computed over inside the sandbox as `tables`."""

from app.data.files import OTHER_FORMATS, READ_SUFFIXES, DataError, DataSet, Table, open_data

__all__ = ["OTHER_FORMATS", "READ_SUFFIXES", "DataError", "DataSet", "Table", "open_data"]
