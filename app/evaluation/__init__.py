"""Evaluation on datasets (Qt-free): read items, grade answers, run methods, write reports."""
