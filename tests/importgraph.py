"""The import graph of the package, read from the source with ``ast`` (tests/test_house.py and
tests/test_kernel_layout.py): every import statement of a module (at module level or inside a function,
absolute or relative) resolved to a tricksim module, and the loops of a graph (Tarjan)."""
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = "tricksim"
FILES = sorted([*(ROOT / "kernels").rglob("*.py"), *(ROOT / "analysis").rglob("*.py"), ROOT / "cli.py"])


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PKG, *parts])


MODULES = {module_name(p): p for p in FILES}


def imports(mod: str):
    """(imported module, line, inside a function) for every import statement of ``mod``."""
    tree = ast.parse(MODULES[mod].read_text())
    here = mod if MODULES[mod].name == "__init__.py" else mod.rpartition(".")[0]
    local = set()
    for f in ast.walk(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            local.update(id(n) for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno, id(node) in local
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            for a in node.names:
                sub = f"{target}.{a.name}"
                yield (sub if sub in MODULES else target), node.lineno, id(node) in local


def graph():
    return {m: sorted({t for t, _, _ in imports(m) if t in MODULES and t != m}) for m in MODULES}


def cycles(graph):
    """The strongly connected components with more than one module (or a module importing itself): Tarjan."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph[v]:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph) + 100))
    for v in graph:
        if v not in index:
            visit(v)
    return out
