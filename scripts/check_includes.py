#!/usr/bin/env python3
"""Checks fhec's include graph (docs/design.md, "Layout").

Folders are layered; an include may point down or sideways, never up:

    tools, python  ->  frontend  ->  codegen  ->  conversion, abi  ->  dialect/*/Transforms  ->  target
        ->  dialect/*/IR  ->  runtime

(a dialect's transforms read the target table, which reads the fhe dialect's
attributes).
and inside one folder no units (a .h and its .cpp) may include each other,
directly or through a longer cycle. The runtime is two libraries
(runtime/CMakeLists.txt): dialect/, target/ and abi/ link only
libfhec_runtime_core, so they and the core's own sources may include only its
headers (those named as its sources, X.h for lib/X.cpp, and header-only
ones that include nothing else). Prints each violation with the include line; exits 1 if there is one.

    scripts/check_includes.py [ROOT]
"""
import pathlib
import re
import sys

LEVELS = {"runtime": 0, "dialect/IR": 1, "target": 2, "dialect/Transforms": 3, "conversion": 4, "abi": 4, "codegen": 5,
          "frontend": 6, "python": 7, "tools": 7}
FOLDERS = ("runtime", "dialect", "target", "conversion", "abi", "codegen", "frontend", "python", "tools")
SOURCES = ("*.h", "*.cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer(rel):
    """The layered folder a path (relative to the root) belongs to, or None."""
    top = rel.parts[0]
    if top == "dialect":
        return f"dialect/{rel.parts[2]}" if len(rel.parts) > 3 else None
    return top if top in LEVELS else None


def resolve(root, src, name):
    """The file an include names: relative to the includer, the root, or runtime/include."""
    for base in (src.parent, root, root / "runtime" / "include"):
        path = base / name
        if path.is_file():
            return path.resolve()
    return None


CORE_USERS = ("dialect/IR", "dialect/Transforms", "target", "abi")
CORE_LIBRARY = re.compile(r"add_library\(fhec_runtime_core\s+SHARED([^)]*)\)")


def core_headers(root):
    """Paths of the headers of libfhec_runtime_core (see the module docstring)."""
    sources = CORE_LIBRARY.search((root / "runtime" / "CMakeLists.txt").read_text()).group(1).split()
    core_units = {pathlib.Path(s).stem for s in sources}
    headers = root / "runtime" / "include" / "fhec" / "runtime"
    has_source = {p.stem for p in (root / "runtime" / "lib").glob("*.cpp")}
    includes = {h.stem: {pathlib.Path(n).stem for n in INCLUDE.findall(h.read_text())} for h in headers.glob("*.h")}
    core = {u for u in includes if u in core_units}
    header_only = {u for u in includes if u not in has_source}
    changed = True
    while changed:
        changed = False
        for u in header_only - core:
            if includes[u] <= core:
                core.add(u)
                changed = True
    return {(headers / f"{u}.h").resolve() for u in core}, {(root / "runtime" / s).resolve() for s in sources}


def units_cycles(edges):
    """Strongly connected components with more than one unit (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
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
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1]).resolve()
    errors, unit_edges, witness = [], {}, {}
    core, core_sources = core_headers(root)
    for folder in FOLDERS:
        for pattern in SOURCES:
            for src in sorted((root / folder).rglob(pattern)):
                rel = src.relative_to(root)
                text = src.read_text(encoding="utf-8", errors="replace")
                for m in INCLUDE.finditer(text):
                    name = m.group(1)
                    if name.endswith(".inc"):
                        continue  # tablegen output, built beside the .td
                    dst = resolve(root, src, name)
                    if dst is None or root not in dst.parents:
                        continue
                    drel = dst.relative_to(root)
                    line = text.count("\n", 0, m.start()) + 1
                    src_layer, dst_layer = layer(rel), layer(drel)
                    if dst_layer and LEVELS[dst_layer] > LEVELS[src_layer]:
                        errors.append(f"{rel}:{line}: includes {name}: {src_layer}/ must not include {dst_layer}/ "
                                      f"(a higher layer)")
                    core_user = src_layer in CORE_USERS or src.resolve() in core_sources or src.resolve() in core
                    if core_user and dst_layer == "runtime" and dst not in core:
                        errors.append(f"{rel}:{line}: includes {name}, which is not in libfhec_runtime_core "
                                      f"({src_layer}/ and the core link only the core)")
                    if dst.parent == src.resolve().parent:
                        a, b = rel.with_suffix(""), drel.with_suffix("")
                        if a != b:
                            unit_edges.setdefault(a, set()).add(b)
                            witness[(a, b)] = f"{rel}:{line}"
    for comp in units_cycles(unit_edges):
        where = [witness[(a, b)] for a in comp for b in unit_edges.get(a, ()) if b in comp]
        errors.append(f"units that include each other: {', '.join(map(str, comp))} ({'; '.join(sorted(where))})")
    for e in errors:
        print(e)
    if errors:
        print(f"check_includes: {len(errors)} violation(s)")
        return 1
    print("check_includes: the include graph is layered and acyclic")
    return 0


if __name__ == "__main__":
    sys.exit(main())
