"""Plots of a bench report (matplotlib, the `report` extra): one figure per store, one panel per
operation, codecs along x, one bar per implementation (median MB/s, whiskers the confidence
interval of the median, log scale), the single-thread limit of each workload as a black dash. Workloads an implementation
cannot do are marked n/a; wrong data is marked, never drawn as a speed."""

from __future__ import annotations

import io
from pathlib import Path

from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

RC = {"svg.hashsalt": "zarr-conformance-bench", "svg.fonttype": "none", "font.size": 8}
MARKS = {"not-applicable": "n/a", "skipped": "skip", "wrong-data": "WRONG", "errored": "err"}


def _colors(names: list[str]) -> dict[str, str]:
    palette = [
        "#4c72b0",
        "#dd8452",
        "#55a868",
        "#c44e52",
        "#8172b3",
        "#937860",
        "#da8bc3",
        "#8c8c8c",
        "#ccb974",
        "#64b5cd",
        "#1f3a68",
        "#8c4a1d",
        "#2e6b3a",
        "#7a1f22",
        "#4b3f73",
        "#c0b28a",
    ]
    return {name: palette[i % len(palette)] for i, name in enumerate(names)}


def figure(report: dict, store: str) -> Figure:
    options = report["options"]
    codecs, operations = options["codecs"], options["operations"]
    results = {
        (r["impl"], r["codec"], r["operation"]): r for r in report["results"] if r["store"] == store
    }
    impls = [name for name in report["implementations"] if any(k[0] == name for k in results)]
    colors = _colors(impls)
    columns = 2 if len(operations) > 1 else 1
    rows = (len(operations) + columns - 1) // columns
    fig = Figure(figsize=(6.2 * columns, 3.4 * rows + 0.8), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False).ravel()
    width = 0.8 / max(1, len(impls))
    for ax, operation in zip(axes, operations):
        ok_values = [
            r["mb_s"]["min"]
            for k, r in results.items()
            if k[2] == operation and r["status"] == "ok"
        ]
        floor = min(ok_values) / 3 if ok_values else 1.0
        for i, impl in enumerate(impls):
            for j, codec in enumerate(codecs):
                entry = results.get((impl, codec, operation))
                if entry is None:
                    continue
                x = j - 0.4 + width * (i + 0.5)
                if entry["status"] == "ok":
                    rate = entry["mb_s"]
                    low, high = rate.get("ci") or (rate["min"], rate["max"])
                    ax.bar(x, rate["median"], width * 0.92, color=colors[impl])
                    ax.errorbar(
                        x,
                        rate["median"],
                        yerr=[[rate["median"] - low], [high - rate["median"]]],
                        fmt="none",
                        ecolor="black",
                        elinewidth=0.7,
                        capsize=1.5,
                    )
                else:
                    ax.text(
                        x,
                        floor * 1.15,
                        MARKS.get(entry["status"], "?"),
                        rotation=90,
                        ha="center",
                        va="bottom",
                        fontsize=6,
                        color="#b00000"
                        if entry["status"] in ("wrong-data", "errored")
                        else "#555555",
                    )
        for j, codec in enumerate(codecs):
            limits = [
                r.get("limit_mb_s")
                for k, r in results.items()
                if k[1] == codec and k[2] == operation and r.get("limit_mb_s")
            ]
            if limits:
                ax.hlines(
                    limits[0], j - 0.45, j + 0.45, colors="black", linestyles="--", linewidth=1.0
                )
        ax.set_yscale("log")
        ax.set_ylim(bottom=floor)
        ax.set_xticks(range(len(codecs)), codecs)
        ax.set_title(
            f"{operation}: {report['workload']['operations'].get(operation, '')}", fontsize=8
        )
        ax.set_ylabel("MB/s (log)")
        ax.grid(axis="y", which="both", linewidth=0.3, alpha=0.5)
    for ax in axes[len(operations) :]:
        ax.set_visible(False)
    handles = [Patch(color=colors[n], label=n) for n in impls]
    handles.append(Line2D([], [], color="black", linestyle="--", label="single-thread limit"))
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=min(len(handles), 8),
        fontsize=7,
        frameon=False,
    )
    machine = report.get("machine", {})
    fig.suptitle(
        f"{store} store — {report['workload']['nbytes'] / 2**20:.0f} MiB float32, median of "
        f"{report['options']['repeat']} runs (whiskers: the median's confidence interval); "
        f"{machine.get('cpu', '?')}, "
        f"{machine.get('cores', '?')} cores",
        fontsize=9,
    )
    return fig


def svg_text(report: dict, store: str) -> str:
    """The figure of `store` as SVG markup (no XML prolog: ready to inline in HTML)."""
    with rc_context(RC):
        buffer = io.StringIO()
        figure(report, store).savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def write_plots(report: dict, folder: Path, stem: str = "bench") -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for store in report["options"]["stores"]:
        if not any(r["store"] == store for r in report["results"]):
            continue
        path = folder / f"{stem}-{store}.svg"
        with rc_context(RC):
            figure(report, store).savefig(path, format="svg", metadata={"Date": None})
        out.append(path)
    return out
