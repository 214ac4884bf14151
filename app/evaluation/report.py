"""Summaries of an evaluation: `summary.json`, `report.md` and a self-contained `report.html`
with a bar chart (inline SVG: nothing to fetch, opens offline)."""

from __future__ import annotations

import html
import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any


def summarise(records: list[dict[str, Any]], dataset: str) -> dict[str, Any]:
    """Per method: accuracy, valid-program and answered rates, time, tokens and calls per item.
    With several methods, also each one's accuracy on the items all of them ran."""
    by_method: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_method.setdefault(record["method"], []).append(record)
    common = set.intersection(*({r["index"] for r in rs} for rs in by_method.values())) if by_method else set()
    methods = []
    for name, rows in by_method.items():
        entry = _figures(name, rows)
        if len(by_method) > 1:
            shared = [r for r in rows if r["index"] in common]
            entry["common_items"] = len(shared)
            entry["accuracy_on_common"] = _rate(sum(r["correct"] for r in shared), len(shared))
        methods.append(entry)
    return {"dataset": dataset, "methods": methods}


def _figures(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    seconds = sorted(float(r["seconds"]) for r in rows)
    program_rows = [r for r in rows if r.get("valid") is not None]
    return {
        "method": name,
        "items": n,
        "correct": sum(bool(r["correct"]) for r in rows),
        "accuracy": _rate(sum(bool(r["correct"]) for r in rows), n),
        "valid_program_rate": _rate(sum(bool(r["valid"]) for r in program_rows), n) if program_rows else None,
        "answered_rate": _rate(sum(bool(r["answered"]) for r in rows), n),
        "fallback_rate": _rate(sum(bool(r.get("fallback_used")) for r in rows), n),
        "median_s": round(statistics.median(seconds), 2) if seconds else None,
        "p90_s": round(_percentile(seconds, 0.9), 2) if seconds else None,
        "tokens_per_item": round(sum(r["completion_tokens"] for r in rows) / n, 1) if n else None,
        "prompt_tokens_per_item": round(sum(r["prompt_tokens"] for r in rows) / n, 1) if n else None,
        "calls_per_item": round(sum(r["calls"] for r in rows) / n, 2) if n else None,
        "statuses": dict(Counter(r["status"] for r in rows).most_common()),
        **_calibration(rows),
    }


def _calibration(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy of the answers shown as confident and of the rest (records before confidence
    was recorded count as not confident)."""
    confident = [r for r in rows if (r.get("confidence") or {}).get("confident")]
    rest = [r for r in rows if r not in confident]
    return {
        "confident_items": len(confident),
        "confident_accuracy": _rate(sum(bool(r["correct"]) for r in confident), len(confident)),
        "other_accuracy": _rate(sum(bool(r["correct"]) for r in rest), len(rest)),
    }


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (p90 of 10 values is the 9th)."""
    rank = max(1, min(len(sorted_values), round(fraction * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


_COLUMNS = (
    ("Method", lambda m: m["method"]),
    ("Items", lambda m: str(m["items"])),
    ("Accuracy", lambda m: _pct(m["accuracy"])),
    ("Valid program", lambda m: _pct(m["valid_program_rate"])),
    ("Answered", lambda m: _pct(m["answered_rate"])),
    ("Median s", lambda m: f"{m['median_s']}"),
    ("p90 s", lambda m: f"{m['p90_s']}"),
    ("Tokens/item", lambda m: f"{m['tokens_per_item']}"),
    ("Calls/item", lambda m: f"{m['calls_per_item']}"),
    ("Confident: items, accuracy", lambda m: f"{m['confident_items']}, {_pct(m['confident_accuracy'])}"),
    ("Others' accuracy", lambda m: _pct(m["other_accuracy"])),
)


def markdown(summary: dict[str, Any]) -> str:
    lines = [
        f"# Evaluation: {summary['dataset']}",
        "",
        "| " + " | ".join(title for title, _ in _COLUMNS) + " |",
        "|" + "---|" * len(_COLUMNS),
    ]
    lines += ["| " + " | ".join(cell(m) for _, cell in _COLUMNS) + " |" for m in summary["methods"]]
    if any("common_items" in m for m in summary["methods"]):
        lines += ["", "On the items every method ran:", ""]
        lines += [
            f"- {m['method']}: {_pct(m['accuracy_on_common'])} of {m['common_items']}" for m in summary["methods"]
        ]
    lines += ["", "Valid program: a program ran and produced the answer (chain of thought writes none: –)."]
    return "\n".join(lines) + "\n"


def html_page(summary: dict[str, Any]) -> str:
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell(m))}</td>" for _, cell in _COLUMNS) + "</tr>"
        for m in summary["methods"]
    )
    header = "".join(f"<th>{html.escape(title)}</th>" for title, _ in _COLUMNS)
    title = html.escape(f"Evaluation: {summary['dataset']}")
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        "<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}td:first-child,th:first-child"
        "{text-align:left}svg text{font-size:12px;font-family:sans-serif}</style></head><body>"
        f"<h1>{title}</h1>{_chart(summary['methods'])}<table><tr>{header}</tr>{rows}</table>"
        "<p>Valid program: a program ran and produced the answer (chain of thought writes none: –).</p>"
        "</body></html>\n"
    )


def _chart(methods: list[dict[str, Any]]) -> str:
    """Horizontal bars: accuracy (dark) and valid-program rate (light) per method, 0–100 %."""
    label_w, bar_w, row_h = 220, 420, 34
    height = row_h * len(methods) + 30
    parts = [f'<svg width="{label_w + bar_w + 70}" height="{height}" role="img" aria-label="accuracy by method">']
    for i, m in enumerate(methods):
        y = 10 + i * row_h
        parts.append(f'<text x="0" y="{y + 14}">{html.escape(m["method"])}</text>')
        for offset, key, colour in ((0, "accuracy", "#2b6cb0"), (16, "valid_program_rate", "#90cdf4")):
            value = m.get(key)
            if value is None:
                continue
            width = round(bar_w * value)
            parts.append(f'<rect x="{label_w}" y="{y + offset}" width="{width}" height="14" fill="{colour}"/>')
            parts.append(f'<text x="{label_w + width + 4}" y="{y + offset + 12}">{_pct(value)}</text>')
    parts.append(
        f'<text x="{label_w}" y="{height - 4}">■ accuracy  </text>'
        f'<text x="{label_w + 90}" y="{height - 4}" fill="#4a90c0">■ valid program</text></svg>'
    )
    return "".join(parts)


def write_reports(out_dir: Path, summary: dict[str, Any]) -> None:
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out_dir / "report.md").write_text(markdown(summary), encoding="utf-8")
    (out_dir / "report.html").write_text(html_page(summary), encoding="utf-8")
