#!/usr/bin/env python3
"""Generates manifests/src/schema/table.rs: the field names of the Kubernetes types the reader
checks for unknown fields (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job,
PodDisruptionBudget, Namespace, PersistentVolumeClaim, PersistentVolume, StorageClass and
everything their specs and ObjectMeta contain).

Source: the PyPI package `kubernetes` (the official Python client), version 37.0.2, whose
models are generated from the OpenAPI document of Kubernetes release-1.37. Each model class
carries `openapi_types` (attribute -> type) and `attribute_map` (attribute -> JSON name); this
script reads them from the wheel's source with `ast`, without importing the package (so it
needs nothing but Python 3's standard library).

Rerun (from the repository root):

    pip download --no-deps -d /tmp/k8s-client kubernetes==37.0.2
    python3 manifests/schema/gen.py /tmp/k8s-client/kubernetes-37.0.2-py2.py3-none-any.whl \
        > manifests/src/schema/table.rs

To move to a newer Kubernetes, download a newer client, change VERSION below and rerun.

How a field's type becomes a kind in the table:
- a model (`V1PodSpec`): an object of that type, whose keys are checked;
- `List[model]`: a list of such objects; `Dict[str, model]`: a map of them;
- everything else is a leaf, whose content is not checked: scalars (`str` (Quantity too),
  `int`, `bool`, `float`, `datetime`), `object` (int-or-string, RawExtension, FieldsV1),
  lists of scalars, and free maps (`Dict[str, str]`: labels, annotations, nodeSelector,
  resource lists).
- `status` fields are leaves: the reader does not read status, and leaving the status types
  out keeps the table small.
"""

import ast
import sys
import zipfile

VERSION = "kubernetes 37.0.2 (PyPI), Kubernetes release-1.37"

ROOTS = [
    "V1Pod",
    "V1Deployment",
    "V1StatefulSet",
    "V1DaemonSet",
    "V1ReplicaSet",
    "V1Job",
    "V1PodDisruptionBudget",
    "V1Namespace",
    "V1PersistentVolumeClaim",
    "V1PersistentVolume",
    "V1StorageClass",
]

SCALARS = {"str", "int", "bool", "float", "datetime", "date", "bytes", "object"}


def read_models(wheel):
    """Class name -> list of (JSON name, type string), from every model module."""
    models = {}
    with zipfile.ZipFile(wheel) as z:
        for name in sorted(z.namelist()):
            if not (name.startswith("kubernetes/client/models/") and name.endswith(".py")):
                continue
            tree = ast.parse(z.read(name).decode("utf-8"))
            for cls in tree.body:
                if not isinstance(cls, ast.ClassDef):
                    continue
                types = attrs = None
                for node in cls.body:
                    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                        if node.target.id == "openapi_types":
                            types = ast.literal_eval(node.value)
                        elif node.target.id == "attribute_map":
                            attrs = ast.literal_eval(node.value)
                if types is None or attrs is None:
                    continue
                models[cls.name] = [(attrs[a], t) for a, t in types.items()]
    return models


def kind_of(field, type_string, models):
    """("leaf", None), ("object", T), ("list", T) or ("map", T)."""
    t = type_string.strip()
    if field == "status" and t.endswith("Status"):
        return ("leaf", None)
    if t in models:
        return ("object", t)
    if t.startswith("List[") and t.endswith("]"):
        inner = t[5:-1].strip()
        return ("list", inner) if inner in models else ("leaf", None)
    if t.startswith("Dict[str,") and t.endswith("]"):
        inner = t[9:-1].strip()
        return ("map", inner) if inner in models else ("leaf", None)
    if t in SCALARS or t.startswith("List[") or t.startswith("Dict["):
        return ("leaf", None)
    raise SystemExit(f"unknown type {t!r} for field {field!r}")


def closure(models):
    seen = []
    todo = list(ROOTS)
    while todo:
        t = todo.pop(0)
        if t in seen:
            continue
        if t not in models:
            raise SystemExit(f"model {t} not found")
        seen.append(t)
        for field, ts in models[t]:
            kind, inner = kind_of(field, ts, models)
            if inner is not None and inner not in seen:
                todo.append(inner)
    return sorted(seen)


def const_name(cls):
    out = ""
    for i, c in enumerate(cls):
        if c.isupper() and i > 0 and (cls[i - 1].islower() or cls[i - 1].isdigit()):
            out += "_"
        elif c.isupper() and i > 0 and i + 1 < len(cls) and cls[i + 1].islower() and cls[i - 1].isupper():
            out += "_"
        out += c.upper()
    return out


def wrap(items, indent="    ", width=100):
    lines, line = [], indent
    for item in items:
        piece = item + ", "
        if len(line) + len(piece.rstrip()) > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += piece
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    models = read_models(sys.argv[1])
    types = closure(models)
    index = {t: i for i, t in enumerate(types)}
    names = sorted({field for t in types for field, _ in models[t]})
    name_index = {n: i for i, n in enumerate(names)}
    tag = {"leaf": 0, "object": 1, "list": 2, "map": 3}

    fields, type_at = [], []
    for t in types:
        type_at.append(len(fields))
        for field, ts in sorted(models[t], key=lambda f: f[0]):
            kind, inner = kind_of(field, ts, models)
            code = 0 if inner is None else (tag[kind] << 14) | index[inner]
            fields.append((name_index[field], code))
    type_at.append(len(fields))
    name_at, offset = [], 0
    for n in names:
        name_at.append(offset)
        offset += len(n)
    name_at.append(offset)
    assert len(types) < (1 << 14) and offset < (1 << 16) and len(fields) < (1 << 16)

    out = []
    out.append("// @generated by manifests/schema/gen.py from the PyPI package `kubernetes` 37.0.2")
    out.append("// (models generated from the OpenAPI document of Kubernetes release-1.37). Do not edit:")
    out.append("// rerun the script as its docstring says.")
    out.append("//")
    out.append(f"// {len(types)} types, {len(fields)} fields, {len(names)} distinct field names.")
    out.append("")
    out.append("#![allow(dead_code)]")
    out.append("")
    out.append("use super::Ty;")
    out.append("")
    out.append(f'pub(super) const SOURCE: &str = "{VERSION}";')
    out.append("")
    out.append("/// Every field name, sorted and concatenated: name `i` is")
    out.append("/// `NAMES[NAME_AT[i] as usize..NAME_AT[i + 1] as usize]`.")
    out.append("#[rustfmt::skip]")
    chunks, cur = [], ""
    for n in names:
        if len(cur) + len(n) > 88:
            chunks.append(cur)
            cur = ""
        cur += n
    chunks.append(cur)
    out.append("pub(super) static NAMES: &str = concat!(")
    for c in chunks:
        out.append(f'    "{c}",')
    out.append(");")
    out.append("")
    out.append("#[rustfmt::skip]")
    out.append(f"pub(super) static NAME_AT: [u16; {len(name_at)}] = [")
    out.append(wrap([str(x) for x in name_at]))
    out.append("];")
    out.append("")
    out.append("/// The fields of type `t` are `FIELDS[TYPE_AT[t]..TYPE_AT[t + 1]]`, sorted by name.")
    out.append("#[rustfmt::skip]")
    out.append(f"pub(super) static TYPE_AT: [u16; {len(type_at)}] = [")
    out.append(wrap([str(x) for x in type_at]))
    out.append("];")
    out.append("")
    out.append("/// One field: its name's index in `NAME_AT` and its kind: 0 for a leaf (not checked),")
    out.append("/// otherwise the tag in the top two bits (1 an object, 2 a list of objects, 3 a map of")
    out.append("/// objects) and the type's index below them.")
    out.append("#[rustfmt::skip]")
    out.append(f"pub(super) static FIELDS: [(u16, u16); {len(fields)}] = [")
    out.append(wrap([f"({n}, {k})" for n, k in fields]))
    out.append("];")
    out.append("")
    for t in types:
        out.append(f"pub(crate) const {const_name(t)}: Ty = Ty({index[t]});")
    print("\n".join(out))


if __name__ == "__main__":
    main()
