"""Draws `mnemo bench --json`'s recall-latency curves as ann-benchmarks presents them.

x: recall@10 against the exact scan; y: p50 latency per query in ms (log scale). One line per
runner: Mnemo's graph index (`semantic_ann_curve`) and each peer of `ann_peers` (faiss,
usearch), every point labelled with its search width; the exact scan (`semantic`) and, when
timed, the int8 scan (`semantic_int8`) as single points.

Usage: python plot.py BENCH.json OUT.svg [--cpu "AMD EPYC, family 25 model 17, 2 cores"]
(without --cpu, the title names the processor of the bench's `machine`)
"""

import argparse
import json

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Fixed ids and no dates, so that a redrawn figure differs only where the data does.
matplotlib.rcParams["svg.hashsalt"] = "mnemo-ann-curve"
matplotlib.rcParams["svg.fonttype"] = "none"

STYLES = {
    "Mnemo": {"color": "#1f6feb", "marker": "o"},
    "faiss": {"color": "#d1242f", "marker": "s"},
    "usearch": {"color": "#1a7f37", "marker": "^"},
}


def runners(bench):
    """(label, version, [(width, recall, p50_ms)]) for Mnemo and each peer."""
    found = []
    curve = bench.get("semantic_ann_curve") or []
    if curve:
        found.append(("Mnemo", "", [(p["width"], p["recall_at_10"], p["p50_ms"]) for p in curve]))
    for name, peer in sorted((bench.get("ann_peers") or {}).items()):
        points = [(p["width"], p["recall_at_10"], p["p50_ms"]) for p in peer["curve"]]
        found.append((name, peer.get("version", ""), points))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench")
    parser.add_argument("svg")
    parser.add_argument("--cpu", default="", help="the CPU, for the title (default: the bench's machine)")
    arguments = parser.parse_args()
    with open(arguments.bench) as file:
        bench = json.load(file)

    figure, axes = plt.subplots(figsize=(8, 5.2))
    for label, version, points in runners(bench):
        style = STYLES.get(label, {"color": "#6e7781", "marker": "D"})
        points.sort()
        xs = [recall for _, recall, _ in points]
        ys = [p50 for _, _, p50 in points]
        name = f"{label} {version}".strip()
        if label == "Mnemo":
            name += " (whole search)"
        axes.plot(xs, ys, label=name, linewidth=1.6, markersize=5, **style)
        for width, recall, p50 in points:
            axes.annotate(
                str(width), (recall, p50), textcoords="offset points", xytext=(4, -9), fontsize=7,
                color=style["color"])
    for key, label, marker in [("semantic", "exact scan (Float)", "*"), ("semantic_int8", "int8 scan", "P")]:
        point = bench.get(key)
        if not point:
            continue
        recall = 1.0 if key == "semantic" else bench.get("int8_recall_at_10")
        if recall is None:
            continue
        axes.plot([recall], [point["p50_ms"]], linestyle="none", marker=marker, markersize=11, color="black",
                  label=f"Mnemo {label}")

    axes.set_yscale("log")
    # Recall on a scale that spreads its top, where the runners differ: the distance to a recall
    # of 1.001 on a log scale (so that 1 itself is drawn).
    axes.set_xscale(
        "function",
        functions=(lambda r: -np.log10(np.clip(1.001 - r, 1e-6, None)), lambda y: 1.001 - 10.0 ** (-y)))
    ticks = [0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 1.0]
    lowest = min([recall for _, _, points in runners(bench) for _, recall, _ in points] + [1.0])
    ticks = [tick for tick in ticks if tick >= lowest - 0.05] or ticks
    axes.set_xticks(ticks, [f"{tick:g}" for tick in ticks])
    axes.set_xlim(left=max(0.0, min(ticks[0], lowest) - 0.02), right=1.0003)
    axes.set_xlabel("recall@10 against the exact scan (scale spread towards 1)")
    axes.set_ylabel("p50 latency per query, ms (log)")
    axes.grid(True, which="both", linewidth=0.4, alpha=0.5)
    title = f"{bench['facts']:,} facts, {bench['dimension']} dimensions, {bench['queries']} queries"
    machine = bench.get("machine")
    cpu = arguments.cpu or (f"{machine['cpu']}, {machine['cores']} cores" if machine else "")
    if cpu:
        title += f"\n{cpu}"
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8, loc="upper left")
    figure.text(
        0.01, 0.005,
        "Labels: search width (Mnemo's beam, faiss efSearch, usearch expansion_search). "
        "Peers: one query per call, one thread, index call from Python.",
        fontsize=6.5, color="#57606a")
    figure.tight_layout(rect=(0, 0.02, 1, 1))
    figure.savefig(arguments.svg, format="svg", metadata={"Date": None})


if __name__ == "__main__":
    main()
