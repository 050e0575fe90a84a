"""The rooms of fedtheory, the doors between them, and the picture of its import graph.

The house rules of ``docs/architecture.md``, stated once and read by the test
``tests/test_architecture.py``:

- every module of ``fedtheory/`` lives in one *room* (:data:`ROOMS`); a room may import only the
  rooms :data:`DOORS` lists for it — all of them below it, so no arrow runs upward;
- the core never imports ``fedtheory.papers``, and no paper imports another;
- the module graph has no circle.

Run it to redraw ``docs/figures/architecture.png`` (``make architecture``)::

    python docs/architecture.py [--output docs/figures/architecture.png]

The graph is read from the source with :mod:`ast` (nothing is imported): every ``import`` and
``from … import`` of a ``fedtheory`` module, at module level, inside a function or under
``if TYPE_CHECKING:`` (a type-only import is still a door between two rooms).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "fedtheory"

#: Rooms from the ground floor up: (room, floor, module prefixes). A module belongs to the
#: room with the longest matching prefix; each paper package is a room of its own.
ROOMS: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    (
        "base",
        0,
        (
            "fedtheory.errors",
            "fedtheory._version",
            "fedtheory._jit",
            "fedtheory._vector_math",
            "fedtheory._checks",
            "fedtheory._seeds",
            "fedtheory._arrays",
        ),
    ),
    ("bounds", 1, ("fedtheory.bounds",)),
    ("stats", 1, ("fedtheory.stats",)),
    ("exact", 1, ("fedtheory.exact",)),
    ("plotting", 1, ("fedtheory.plotting",)),
    ("problems", 2, ("fedtheory.problems",)),
    ("algorithms", 3, ("fedtheory.algorithms",)),
    ("verify", 4, ("fedtheory.verify",)),
    ("papers", 4, ("fedtheory.papers",)),
    ("worstcase", 4, ("fedtheory.worstcase",)),
    ("explore", 3, ("fedtheory.explore",)),
    (
        "app",
        5,
        (
            "fedtheory.cli",
            "fedtheory._cli_worstcase",
            "fedtheory._cli_init",
            "fedtheory._cli_explore",
            "fedtheory.figures",
            "fedtheory.scaffold",
        ),
    ),
)

_CORE = {"base", "bounds", "stats", "exact", "plotting", "problems", "algorithms"}

#: The rooms each room may import (its own included).
DOORS: dict[str, set[str]] = {
    "base": {"base"},
    "bounds": {"base", "bounds"},
    "stats": {"base", "stats"},
    "exact": {"base", "exact"},
    "plotting": {"base", "plotting"},
    "problems": {"base", "exact", "problems"},
    # the bound explorer page: bounds printed to JavaScript and MathML
    "explore": {"base", "bounds", "explore"},
    "algorithms": {"base", "problems", "algorithms"},
    "verify": {"base", "bounds", "stats", "exact", "plotting", "problems", "algorithms", "verify"},
    "papers": _CORE | {"papers"},  # a paper package: the core and itself (checked below)
    # PEPs of the methods; the counterexamples run the core round loop on core problems
    "worstcase": {"base", "problems", "algorithms", "worstcase"},
    "app": {room for room, _, _ in ROOMS},
}


@dataclass(frozen=True)
class Import:
    """``source`` imports ``target`` at ``line`` (``inside_function``: not at module level)."""

    source: str
    target: str
    line: int
    inside_function: bool


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``fedtheory/papers/minimax/clients.py`` → ``fedtheory.papers.minimax.clients``."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str:
    """The room a module lives in (the longest matching prefix of :data:`ROOMS`)."""
    if module in ("fedtheory", "fedtheory.papers"):
        return "app"  # the lazy package indexes, not what is below them
    best, length = "app", -1
    for room, _, prefixes in ROOMS:
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and len(prefix) > length and prefix not in ("fedtheory",):
                best, length = room, len(prefix)
    return best


def paper_of(module: str) -> str | None:
    """``"minimax"`` for ``fedtheory.papers.minimax.clients``; None outside a paper package."""
    parts = module.split(".")
    if room_of(module) != "papers":
        return None
    if len(parts) >= 3 and parts[:2] == ["fedtheory", "papers"]:
        return parts[2]
    return None


def _resolve(source: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = source.split(".")[: -node.level] if not source.endswith("__init__") else source
    return ".".join([*base, node.module] if node.module else base)


def _imports(path: Path, root: Path) -> Iterator[Import]:
    source = module_name(path, root)
    tree = ast.parse(path.read_text(), str(path))
    functions = [
        node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    nested = {id(inner) for f in functions for inner in ast.walk(f) if inner is not f}
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(source, node)
            # `from fedtheory.papers import minimax` imports the module fedtheory.papers.minimax
            targets = [
                f"{module}.{alias.name}"
                if (root.parent / module.replace(".", "/") / alias.name).exists()
                or (root.parent / f"{module.replace('.', '/')}/{alias.name}.py").exists()
                else module
                for alias in node.names
            ]
        for target in targets:
            if target == "fedtheory" or target.startswith("fedtheory."):
                yield Import(source, target, node.lineno, id(node) in nested)


def import_graph(root: Path = PACKAGE) -> list[Import]:
    """Every import of a fedtheory module by a module below ``root``."""
    out: list[Import] = []
    for path in sorted(root.rglob("*.py")):
        out.extend(_imports(path, root))
    return out


def violations(graph: list[Import]) -> list[str]:
    """Imports that break the rules (an upward arrow, core → papers, paper → another paper)."""
    out = []
    for edge in graph:
        source_room, target_room = room_of(edge.source), room_of(edge.target)
        if target_room not in DOORS[source_room]:
            out.append(
                f"{edge.source}:{edge.line} imports {edge.target}: room {source_room!r} may "
                f"not import room {target_room!r}"
            )
            continue
        source_paper, target_paper = paper_of(edge.source), paper_of(edge.target)
        if source_paper and target_paper and source_paper != target_paper:
            out.append(
                f"{edge.source}:{edge.line} imports {edge.target}: paper {source_paper!r} may "
                f"not import paper {target_paper!r}"
            )
    return out


def circles(graph: list[Import]) -> list[list[str]]:
    """The strongly connected components with more than one module (or a self-import)."""
    edges: dict[str, set[str]] = {}
    for edge in graph:
        edges.setdefault(edge.source, set()).add(edge.target)
        edges.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in edges[node]:
                found.append(sorted(component))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


# ----------------------------------------------------------------------------------- picture


def _room_label(module: str) -> str:
    paper = paper_of(module)
    return f"papers/{paper}" if paper else room_of(module)


def draw(graph: list[Import], output: Path) -> Path:
    """Rooms as boxes by floor, one arrow per pair of rooms that import each other (width by
    the number of module imports; red for a broken rule)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    modules = {edge.source for edge in graph} | {module_name(p) for p in PACKAGE.rglob("*.py")}
    rooms: dict[str, int] = {}
    for module in modules:
        rooms[_room_label(module)] = rooms.get(_room_label(module), 0) + 1
    floors: dict[int, list[str]] = {}
    floor_of = {room: floor for room, floor, _ in ROOMS}
    for room in sorted(rooms):
        floor = floor_of["papers"] if room.startswith("papers/") else floor_of[room]
        floors.setdefault(floor, []).append(room)
    position: dict[str, tuple[float, float]] = {}
    for floor, names in floors.items():
        for k, name in enumerate(names):
            position[name] = ((k + 1) / (len(names) + 1), 0.08 + floor * 0.18)
    weights: dict[tuple[str, str], int] = {}
    broken: set[tuple[str, str]] = set()
    for edge in graph:
        a, b = _room_label(edge.source), _room_label(edge.target)
        if a != b:
            weights[(a, b)] = weights.get((a, b), 0) + 1
            if violations([edge]):
                broken.add((a, b))
    fig, ax = plt.subplots(figsize=(11, 7.5), dpi=110)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.05)
    ax.axis("off")
    for (a, b), count in sorted(weights.items()):
        (x0, y0), (x1, y1) = position[a], position[b]
        arrow = FancyArrowPatch(
            (x0, y0 - 0.03),
            (x1, y1 + 0.03),
            arrowstyle="-|>",
            mutation_scale=10,
            linewidth=0.4 + 0.25 * min(count, 12),
            color="#c0392b" if (a, b) in broken else "#7f8c8d",
            alpha=0.75,
            connectionstyle="arc3,rad=0.08",
        )
        ax.add_patch(arrow)
    for name, (x, y) in position.items():
        paper = name.startswith("papers/")
        box = FancyBboxPatch(
            (x - 0.075, y - 0.03),
            0.15,
            0.06,
            boxstyle="round,pad=0.005",
            facecolor="#fdebd0" if paper else "#d6eaf8",
            edgecolor="#34495e",
        )
        ax.add_patch(box)
        ax.text(x, y + 0.006, name, ha="center", va="center", fontsize=9, weight="bold")
        ax.text(x, y - 0.016, f"{rooms[name]} modules", ha="center", va="center", fontsize=7)
    title = "fedtheory: rooms and imports (arrows point from importer to imported; none runs up)"
    fig.suptitle(title, fontsize=11, y=0.99)
    ax.text(
        0.5,
        1.03,
        f"{len(graph)} imports between fedtheory modules; broken rules: {len(violations(graph))}; "
        f"circles: {len(circles(graph))}",
        ha="center",
        fontsize=8,
        color="#555555",
    )
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, bbox_inches="tight")
    plt.close(fig)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--output",
        type=Path,
        default=Path(__file__).resolve().parent / "figures" / "architecture.png",
    )
    args = parser.parse_args(argv)
    graph = import_graph()
    problems = violations(graph) + [" ↔ ".join(c) for c in circles(graph)]
    path = draw(graph, args.output)
    print(f"wrote {path}")
    for problem in problems:
        print(f"rule broken: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
