#!/usr/bin/env python3
"""Lists the places outside a backend's own folder whose code names that backend.

Code above the backend interface asks a backend's capabilities, never its name (CONTRIBUTING.md), so
that a new backend is a folder and a line in src/backends/backends.cmake. The backends are the
`gpukit_backend(<name>)` lines of that file, the one place allowed to name them. In C++ (src/,
include/, python/src/) a name counts as a string literal ("cuda"), a namespace (cuda::), an include of
the backend's folder, an enumerator (Kind::cuda) or its descriptor function; in Python
(python/gpukit/), as a string literal that is not a docstring (nor, in `__all__`, the name of a module
beside it: `gpukit.cuda` is Numba's API, named as Numba names it; nor on a line whose comment starts
`# not a backend:` and says why, as Numba's target name "cuda" does). Comments, docstrings and messages
that mention a backend in a sentence are documentation and do not count. Prints each place; exits
1 when there is one.

    scripts/check_backend_names.py [REPOSITORY]
"""

import io
import pathlib
import re
import sys
import tokenize

REGISTRATION = pathlib.Path("src/backends/backends.cmake")
CPP_ROOTS = ("src", "include", "python/src")
PYTHON_ROOTS = ("python/gpukit",)
CPP_SUFFIXES = {".cpp", ".hpp", ".h", ".cmake"}


def backend_names(root):
    text = (root / REGISTRATION).read_text()
    return re.findall(r"^\s*gpukit_backend\((\w+)\)", text, re.M)


def without_cpp_comments(text):
    """``text`` with // and /* */ comments blanked (string literals kept), line numbers unchanged."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)

    def blank(match):
        found = match.group(0)
        if found.startswith(("//", "/*")):
            return re.sub(r"[^\n]", " ", found)
        return found

    return pattern.sub(blank, text)


def cpp_findings(path, text, names):
    if path.suffix == ".cmake":  # a backend's build file is its own; others name no backend
        text = re.sub(r"#[^\n]*", "", text)
        patterns = [re.compile(rf"\b{name}\b") for name in names]
    else:
        text = without_cpp_comments(text)
        patterns = []
        for name in names:
            patterns += [re.compile(rf'"{name}"'), re.compile(rf"\b{name}::"), re.compile(rf"::{name}\b"),
                         re.compile(rf'#\s*include\s*"backends/{name}/'), re.compile(rf"\b{name}_backend_descriptor\b")]
    for number, line in enumerate(text.splitlines(), start=1):
        if any(pattern.search(line) for pattern in patterns):
            yield number, line.strip()


def python_findings(text, names, modules=()):
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    in_all = False  # inside `__all__ = [...]`, where a name may be a module's (gpukit.cuda: Numba's API)
    for index, token in enumerate(tokens):
        if token.type == tokenize.NAME and token.string == "__all__":
            in_all = True
        elif in_all and token.type == tokenize.OP and token.string == "]":
            in_all = False
        if token.type != tokenize.STRING:
            continue
        if in_all and token.string.strip("'\"") in modules:
            continue
        if "# not a backend:" in token.line:  # the line says why the word is not a backend's name here
            continue
        previous = next((t for t in reversed(tokens[:index]) if t.type not in (tokenize.NL, tokenize.COMMENT)), None)
        docstring = previous is None or previous.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        if docstring:
            continue
        value = token.string.lstrip("rbuRBU")
        if value.strip("'\"") in names:
            yield token.start[0], token.line.strip()


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    names = backend_names(root)
    own_folders = [root / "src/backends" / name for name in names]
    found = 0
    for top in CPP_ROOTS + PYTHON_ROOTS:
        for path in sorted((root / top).rglob("*")):
            own = path == root / REGISTRATION or any(folder in path.parents for folder in own_folders)
            if own or not path.is_file():
                continue
            if top in PYTHON_ROOTS and path.suffix == ".py":
                modules = {module.stem for module in path.parent.glob("*.py")}
                findings = python_findings(path.read_text(), names, modules)
            elif top in CPP_ROOTS and path.suffix in CPP_SUFFIXES:
                findings = cpp_findings(path, path.read_text(), names)
            else:
                continue
            for number, line in findings:
                print(f"{path.relative_to(root)}:{number}: {line}")
                found += 1
    if found:
        print(f"{found} places name a backend outside its folder: ask BackendInfo::capabilities instead "
              "(CONTRIBUTING.md, 'Adding a backend')", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
