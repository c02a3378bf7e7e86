#!/usr/bin/env python3
"""One-off: writes lessons/<id>/lesson.yaml and lesson.ko.yaml from web/src/lessons.rs.

The page's lessons were Rust constants; this moves their text verbatim into the lesson
format (lessons/README.md). Rust string continuations (a backslash at a line's end and the
next line's leading spaces) are joined, `\\n\\n` paragraph breaks become blank lines of a
literal block, and everything else is kept as written. Run from the repository root:

    python3 scripts/lessons-from-rust.py

It checks its own output by reading every file back (PyYAML) and comparing each text with
the Rust string. Delete this script once the page reads lessons/ and web/src/lessons.rs
is gone.
"""

import json
import os
import re
import sys

import yaml

SOURCE = "web/src/lessons.rs"

# --- Rust tokens -------------------------------------------------------------------------


def unescape(body):
    """The value of a Rust string literal's body."""
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = body[i + 1]
        if n == "\n":
            # A continuation: the line break and the next line's leading whitespace go.
            i += 2
            while i < len(body) and body[i] in " \t\n\r":
                i += 1
            continue
        simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        elif n == "u":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3 : end], 16)))
            i = end + 1
        else:
            raise ValueError(f"unknown escape \\{n}")
    return "".join(out)


TOKEN = re.compile(
    r'\s+|//[^\n]*|"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9_]*|::|=>|[{}()\[\],:;&=!#.]',
    re.S,
)


def tokens(text):
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot read at {text[pos:pos + 40]!r}")
        t = m.group(0)
        pos = m.end()
        if t.isspace() or t.startswith("//"):
            continue
        if t.startswith('"'):
            out.append(("str", unescape(t[1:-1])))
        elif t[0].isdigit():
            out.append(("num", int(t.replace("_", ""))))
        elif t[0].isalpha() or t[0] == "_":
            out.append(("id", t))
        else:
            out.append(("p", t))
    return out


class Parser:
    """Rust struct literals, paths, slices, tuples and calls as Python values."""

    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else ("eof", None)

    def take(self, kind=None, value=None):
        tok = self.peek()
        if kind and tok[0] != kind or value is not None and tok[1] != value:
            raise ValueError(f"expected {kind} {value}, found {tok} at {self.i}")
        self.i += 1
        return tok[1]

    def value(self):
        kind, v = self.peek()
        if kind == "str":
            self.i += 1
            return v
        if kind == "num":
            self.i += 1
            return v
        if v == "&":
            self.i += 1
            return self.value()
        if v == "[":
            self.i += 1
            items = []
            while self.peek()[1] != "]":
                items.append(self.value())
                if self.peek()[1] == ",":
                    self.i += 1
            self.i += 1
            return items
        if v == "(":
            self.i += 1
            items = []
            while self.peek()[1] != ")":
                items.append(self.value())
                if self.peek()[1] == ",":
                    self.i += 1
            self.i += 1
            return tuple(items)
        if kind == "id":
            path = [self.take("id")]
            while self.peek()[1] == "::":
                self.i += 1
                path.append(self.take("id"))
            name = "::".join(path)
            if self.peek()[1] == "{":
                self.i += 1
                fields = {}
                while self.peek()[1] != "}":
                    key = self.take("id")
                    if self.peek()[1] == ":":
                        self.i += 1
                        fields[key] = self.value()
                    else:
                        fields[key] = ("ref", key)
                    if self.peek()[1] == ",":
                        self.i += 1
                self.i += 1
                return ("struct", name, fields)
            if self.peek()[1] == "(":
                args = self.value()
                return ("call", name, args)
            return ("path", name)
        raise ValueError(f"unexpected {self.peek()} at {self.i}")


def after(text, marker):
    at = text.index(marker)
    return text[at + len(marker) :]


def parse_source(text):
    # Lab files and names.
    files = dict(re.findall(r'Lab::(\w+) =>\s*\{?\s*include_str!\("([^"]+)"\)', text))
    names_block = text[text.index("pub fn name(self, lang: Lang)") : text.index("/// Drops the leading")]
    names = {}
    for m in re.finditer(r"Lab::(\w+) =>\s*\{?\s*lang\.pick\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*,?\s*){2})\)", names_block):
        pair = [unescape(s[1:-1]) for s in re.findall(r'"(?:[^"\\]|\\.)*"', m.group(2))]
        names[m.group(1)] = pair
    # LESSONS.
    lessons_src = after(text, "pub static LESSONS: &[Lesson] = ")
    p = Parser(tokens(lessons_src[: lessons_src.index("];") + 1]))
    lessons = p.value()
    # Exercises.
    exercises = {}
    for m in re.finditer(r"static (\w+): Exercise = ", text):
        rest = text[m.end() :]
        p = Parser(tokens(rest[: rest.index("\n};") + 2]))
        exercises[m.group(1)] = p.value()
    return files, names, lessons, exercises


# --- the lesson format ---------------------------------------------------------------------


def lab_path(rust_path):
    # Paths in lessons.rs are relative to web/src; the lesson files sit in lessons/<id>/.
    repo = os.path.normpath(os.path.join("web/src", rust_path))
    return os.path.relpath(repo, "lessons/x")


STOP = {"a", "an", "and", "what", "the", "of", "to", "in", "on", "for", "with", "at", "by", "its", "it"}


def slug(title, taken):
    words = re.sub(r"[^a-z0-9]+", " ", title.lower()).split()[:7]
    while len(words) > 2 and words[-1] in STOP:
        words.pop()
    s = "-".join(words) or "step"
    base, n = s, 2
    while s in taken:
        s = f"{base}-{n}"
        n += 1
    taken.add(s)
    return s


def text_of(t):
    assert t[0] == "struct" and t[1] == "Text", t
    return t[2]["en"], t[2]["ko"]


def dollars(micro):
    whole, frac = divmod(micro, 1_000_000)
    s = f"{whole}.{frac:06d}".rstrip("0").rstrip(".")
    return f"${s}/h"


def cores(milli):
    return str(milli // 1000) if milli % 1000 == 0 else f"{milli}m"


def goal(g):
    kind = g[1]
    if g[0] == "path" and kind == "Goal::NothingPending":
        return {"nothingPending": True}
    if g[0] == "call" and kind == "Goal::CostBelow":
        return {"costBelow": dollars(g[2][0])}
    f = g[2]
    if kind == "Goal::Running":
        return {"running": {"workload": f["workload"], "atLeast": f["at_least"]}}
    if kind == "Goal::RunsOn":
        return {"runsOn": {"workload": f["workload"], "pool": f["pool"]}}
    if kind == "Goal::PoolNodes":
        out = {"pool": f["pool"], "min": f["min"]}
        if f["max"] != ("path", "usize::MAX"):
            out["max"] = f["max"]
        return {"poolNodes": out}
    if kind == "Goal::LimitAtMost":
        assert f["resource"] == "cpu", f
        return {"limitAtMost": {"pool": f["pool"], "resource": f["resource"], "limit": cores(f["limit"])}}
    raise ValueError(g)


# --- YAML out ------------------------------------------------------------------------------

PLAIN = re.compile(r"^(?:[^\W\d_]|[$(])[^:#\n]*$")
RESERVED = {"y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"}


def scalar(s):
    if isinstance(s, bool):
        return "true" if s else "false"
    if isinstance(s, int):
        return str(s)
    if PLAIN.match(s) and s == s.strip() and s.lower() not in RESERVED and not s.endswith(","):
        return s
    return json.dumps(s, ensure_ascii=False)


def block(s, indent):
    """A literal block scalar at `indent` spaces (the key's own indentation + 2)."""
    if s.endswith("\n\n"):
        chomp = "+"
    elif s.endswith("\n"):
        chomp = ""
    else:
        chomp = "-"
    body = s[:-1] if chomp == "" else s
    lines = body.split("\n") if chomp != "+" else s.split("\n")[:-1]
    indicator = "2" if lines and lines[0].startswith(" ") else ""
    pad = " " * indent
    out = [f"|{indicator}{chomp}"]
    for line in lines:
        out.append(pad + line if line else "")
    return "\n".join(out)


def flow(d):
    """A flow mapping: a value with a comma or a bracket is quoted there."""

    def value(v):
        text = scalar(v)
        if isinstance(v, str) and not text.startswith('"') and re.search(r"[,\[\]{}]", v):
            return json.dumps(v, ensure_ascii=False)
        return text

    return "{" + ", ".join(f"{k}: {value(v)}" for k, v in d.items()) + "}"


class Out:
    def __init__(self):
        self.lines = []

    def kv(self, indent, key, value, dash=False):
        prefix = " " * indent + ("- " if dash else "")
        self.lines.append(f"{prefix}{key}: {value}")

    def text(self, indent, key, value, dash=False):
        # Block content sits two spaces deeper than the key (the key's column, after a dash).
        col = indent + (2 if dash else 0)
        if "\n" in value or len(value) > 60:
            self.kv(indent, key, block(value, col + 2), dash)
        else:
            self.kv(indent, key, scalar(value), dash)

    def get(self):
        return "\n".join(self.lines) + "\n"


def lab_map(lab, names, files, lang):
    name = names[lab][0 if lang == "en" else 1]
    if lang == "en":
        return flow({"file": lab_path(files[lab]), "name": name})
    return flow({"name": name})


def convert(lesson, files, names, exercises):
    f = lesson[2]
    lid = f["id"]
    steps = f["steps"]
    en, ko = Out(), Out()
    title, summary = text_of(f["title"]), text_of(f["summary"])
    for o, lang, i in ((en, "en", 0), (ko, "ko", 1)):
        o.kv(0, "id", scalar(lid))
        o.text(0, "title", title[i])
        o.text(0, "summary", summary[i])
    first_lab = steps[0][2]["lab"][1].split("::")[1]
    en.kv(0, "lab", lab_map(first_lab, names, files, "en"))
    ko.kv(0, "lab", lab_map(first_lab, names, files, "ko"))
    for o in (en, ko):
        o.lines.append("steps:")
    taken = set()
    previous = first_lab
    expected = {"id": lid, "title": title, "summary": summary, "lab": first_lab, "steps": []}
    for s in steps:
        sf = s[2]
        stitle, body = text_of(sf["title"]), text_of(sf["body"])
        sid = slug(stitle[0], taken)
        lab = sf["lab"][1].split("::")[1]
        compare = None if sf["compare"] == ("path", "None") else sf["compare"][2][0][1].split("::")[1]
        ex = None
        if sf["exercise"] != ("path", "None"):
            ex = exercises[sf["exercise"][2][0][1]][2]
        expected["steps"].append(
            {"id": sid, "title": stitle, "text": body, "lab": lab, "compare": compare, "exercise": ex}
        )
        for o, lang, i in ((en, "en", 0), (ko, "ko", 1)):
            o.kv(2, "id", sid, dash=True)
            o.text(4, "title", stitle[i])
            if lab != previous:
                o.kv(4, "lab", lab_map(lab, names, files, lang))
            if compare:
                o.kv(4, "compare", lab_map(compare, names, files, lang))
            o.text(4, "text", body[i])
            if ex:
                o.lines.append("    exercise:")
                for key in ("task", "hint", "solution"):
                    o.kv(6, key, block(text_of(ex[key])[i], 8))
                if lang == "en":
                    o.lines.append("      edits:")
                    for find, replace in ex["edits"]:
                        o.kv(8, "find", block(find, 12), dash=True)
                        o.kv(10, "replace", block(replace, 12))
                    o.lines.append("      goals:")
                    for g in ex["goals"]:
                        (k, v), = goal(g).items()
                        o.kv(8, k, flow(v) if isinstance(v, dict) else scalar(v), dash=True)
                    judged = {"Judged::AtRest": "atRest", "Judged::AnyInstant": "anyInstant"}
                    o.kv(6, "judged", judged[ex["judged"][1]])
        previous = lab
    return lid, en.get(), ko.get(), expected


files_of = {}


def verify(en_text, ko_text, expected, names):
    en, ko = yaml.safe_load(en_text), yaml.safe_load(ko_text)
    assert en["id"] == ko["id"] == expected["id"]
    assert (en["title"], ko["title"]) == expected["title"], (en["title"], expected["title"])
    assert (en["summary"], ko["summary"]) == expected["summary"]
    assert len(en["steps"]) == len(ko["steps"]) == len(expected["steps"])
    assert (en["lab"]["name"], ko["lab"]["name"]) == tuple(names[expected["lab"]])
    previous = expected["lab"]
    for e, k, x in zip(en["steps"], ko["steps"], expected["steps"]):
        if x["lab"] != previous:
            assert (e["lab"]["name"], k["lab"]["name"]) == tuple(names[x["lab"]])
            assert e["lab"]["file"].endswith(os.path.basename(files_of[x["lab"]]))
        else:
            assert "lab" not in e and "lab" not in k
        previous = x["lab"]
        if x["compare"]:
            assert (e["compare"]["name"], k["compare"]["name"]) == tuple(names[x["compare"]])
        assert e["id"] == k["id"] == x["id"]
        assert (e["title"], k["title"]) == x["title"], (e["title"], x["title"])
        assert (e["text"], k["text"]) == x["text"], (repr(e["text"]), repr(x["text"][0]))
        if x["exercise"]:
            ex = x["exercise"]
            for key in ("task", "hint", "solution"):
                assert (e["exercise"][key], k["exercise"][key]) == text_of(ex[key]), key
            got = [(d["find"], d["replace"]) for d in e["exercise"]["edits"]]
            assert got == [tuple(p) for p in ex["edits"]], (got, ex["edits"])


def main():
    text = open(SOURCE, encoding="utf-8").read()
    files, names, lessons, exercises = parse_source(text)
    files_of.update(files)
    for lesson in lessons:
        lid, en, ko, expected = convert(lesson, files, names, exercises)
        verify(en, ko, expected, names)
        folder = os.path.join("lessons", lid)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "lesson.yaml"), "w", encoding="utf-8") as f:
            f.write(en)
        with open(os.path.join(folder, "lesson.ko.yaml"), "w", encoding="utf-8") as f:
            f.write(ko)
        print(f"lessons/{lid}: {len(expected['steps'])} steps")


if __name__ == "__main__":
    sys.exit(main())
