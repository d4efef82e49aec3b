"""The figures of a ``gpukit bench`` run (matplotlib): per workload, time against size on log-log
axes with one line per library (the course's CPU-vs-GPU figures), and a bar chart of the fraction
of its ceiling each gpukit workload reaches at its largest size."""

import re


def _matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg")  # files, never a window
        import matplotlib.pyplot as pyplot
    except ImportError as error:
        raise ImportError("gpukit bench --plots needs matplotlib: pip install matplotlib (or gpukit[bench])") from error
    return pyplot


def file_name(workload):
    return re.sub(r"[^a-z0-9]+", "-", workload.lower()).strip("-") + ".png"


def write(document, folder):
    """Writes one PNG per workload and ceiling.png into ``folder`` (a pathlib.Path); returns their paths."""
    pyplot = _matplotlib()
    folder.mkdir(parents=True, exist_ok=True)
    by_workload = {}
    for r in document["results"]:
        if r.get("seconds"):
            by_workload.setdefault(r["workload"], {}).setdefault(r["library"], []).append((r["size"], r["seconds"]))
    written = []
    device = document["environment"].get("device", "")
    for workload, by_library in by_workload.items():
        figure, axes = pyplot.subplots(figsize=(6, 4))
        for library, points in sorted(by_library.items()):
            points.sort()
            axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=library)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("size (elements, or a matrix's side)")
        axes.set_ylabel("seconds per run (median)")
        axes.set_title(f"{workload}\n{device}", fontsize=9)
        axes.grid(True, which="both", alpha=0.3)
        axes.legend()
        figure.tight_layout()
        path = folder / file_name(workload)
        figure.savefig(path, dpi=110)
        pyplot.close(figure)
        written.append(path)
    written.append(_ceiling_chart(pyplot, document, folder / "ceiling.png"))
    return written


def _ceiling_chart(pyplot, document, path):
    ceilings = document["ceilings"]
    largest = {}
    for r in document["results"]:
        if r["library"] == "gpukit" and r.get("seconds") and r.get("ceiling") and ceilings.get(r["ceiling"]):
            if r["size"] >= largest.get(r["workload"], {}).get("size", -1):
                largest[r["workload"]] = r
    names = list(largest)
    fractions = [100 * largest[n]["rate"] / ceilings[largest[n]["ceiling"]] for n in names]
    figure, axes = pyplot.subplots(figsize=(7, 0.3 * len(names) + 1.5))
    axes.barh(names, fractions)
    axes.set_xlabel("% of its ceiling (copy bandwidth, BLAS rate, pinned H2D)")
    axes.set_title(f"gpukit at each workload's largest size\n{document['environment'].get('device', '')}", fontsize=9)
    axes.invert_yaxis()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path
