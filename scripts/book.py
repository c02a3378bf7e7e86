#!/usr/bin/env python3
"""The documentation book's sources, made whole and checked (scripts/book runs this).

  python3 scripts/book.py stage BOOK_DIR STAGE_DIR KPG   copy the book and write what is generated
  python3 scripts/book.py check STAGE_DIR KPG            every link, every example

Generated chapters (one source each, so nothing drifts):
  - cli-reference.md: `kpg help` and `kpg help COMMAND` for every command, as the binary prints
    them;
  - architecture.md: ARCHITECTURE.md;
  - lessons.md: lessons/README.md (the lesson format).

The check fails, naming the file and line, on:
  - a link to a page, a file or an anchor that is not there (http(s) links are checked for
    form only: the build has no network);
  - a ```yaml block that `kpg validate` does not accept (``` yaml fragment blocks are parts of
    a scenario and are skipped);
  - a ```console block whose `$ kpg ...` commands print other than what the block shows.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def kpg_commands(kpg):
    """The commands `kpg help` lists, in its order."""
    text = subprocess.run([kpg, 'help'], capture_output=True, text=True, check=True).stdout
    commands = []
    section = text.split('\nCommands:\n', 1)[1]
    for line in section.splitlines():
        m = re.match(r'^  ([a-z]+)\s{2,}', line)
        if m and m.group(1) not in commands and m.group(1) != 'help':
            commands.append(m.group(1))
    return commands


def stage(book, out, kpg):
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(book, out)
    src = out / 'src'
    overview = subprocess.run([kpg, 'help'], capture_output=True, text=True, check=True).stdout
    parts = ['# Command reference\n',
             'Generated from the binary at each build (`kpg help` and `kpg help COMMAND`): '
             'what the command line prints, word for word.\n',
             '```text\n$ kpg help\n' + overview.rstrip('\n') + '\n```\n']
    for command in kpg_commands(kpg):
        run = subprocess.run([kpg, 'help', command], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f'book: `kpg help {command}` failed: {run.stderr.strip()}')
        parts.append(f'## `kpg {command}`\n\n```text\n$ kpg help {command}\n'
                     + run.stdout.rstrip('\n') + '\n```\n')
    (src / 'cli-reference.md').write_text('\n'.join(parts))
    architecture = (REPO / 'ARCHITECTURE.md').read_text()
    (src / 'architecture.md').write_text(architecture)
    # The lesson format, as lessons/README.md writes it; its YAML blocks are lesson files,
    # which `kpg lesson check` checks (scripts/test), not scenarios.
    lessons = (REPO / 'lessons' / 'README.md').read_text()
    lessons = re.sub(r'^```yaml$', '```yaml fragment', lessons, flags=re.M)
    (src / 'lessons.md').write_text(lessons.replace('# Lessons\n', '# Writing lessons\n', 1))


def slug(heading):
    """An anchor as mdBook makes it from a heading's text."""
    text = re.sub(r'`|\*|_(?=\w)|(?<=\w)_', '', heading)
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    out = []
    for ch in text.strip():
        if ch.isalnum() or ch in '_-':
            out.append(ch.lower())
        elif ch.isspace():
            out.append('-')
    return ''.join(out)


def anchors(path):
    seen = {}
    result = set()
    in_code = False
    for line in path.read_text().splitlines():
        if line.startswith('```'):
            in_code = not in_code
            continue
        m = None if in_code else re.match(r'^(#{1,6})\s+(.*)$', line)
        if m:
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            result.add(s if n == 0 else f'{s}-{n}')
    return result


def blocks(text):
    """(info string, first line number, lines) of every fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r'^```(.*)$', lines[i])
        if m:
            info, start, body = m.group(1).strip(), i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith('```'):
                body.append(lines[i])
                i += 1
            yield info, start, body
        i += 1


def included(text, base):
    """The text with mdBook's {{#include FILE}} lines replaced by the files."""
    def one(m):
        return (base / m.group(1).strip()).read_text().rstrip('\n')
    return re.sub(r'\{\{#include ([^}]+)\}\}', one, text)


def check(out, kpg):
    src = out / 'src'
    problems = []
    pages = sorted(src.rglob('*.md'))
    # The README, the book's front door on GitHub, links into the book's sources.
    for page in pages + [REPO / 'README.md']:
        rel = page.relative_to(src) if page.is_relative_to(src) else page.relative_to(REPO)
        raw = page.read_text()
        # Links, outside code.
        in_code = False
        for n, line in enumerate(raw.splitlines(), 1):
            if line.startswith('```'):
                in_code = not in_code
                continue
            if in_code:
                continue
            for target in re.findall(r'\]\(([^)\s]+)\)', re.sub(r'`[^`]*`', '', line)):
                where = f'{rel}:{n}'
                if re.match(r'^(https?|mailto):', target):
                    if not re.match(r'^(https?://[^/\s]+\.[^/\s]+|mailto:[^@\s]+@[^@\s]+)', target):
                        problems.append(f'{where}: a malformed address: {target}')
                    continue
                file, _, anchor = target.partition('#')
                dest = (page.parent / file).resolve() if file else page
                if not dest.exists():
                    problems.append(f'{where}: a link to {file}, which is not in the book')
                    continue
                if anchor and dest.suffix == '.md' and anchor not in anchors(dest):
                    problems.append(f'{where}: a link to #{anchor}, which {dest.name} has no '
                                    f'heading for')
        # Examples, with mdBook's includes read in (the line named is the source's).
        for info, start, body in blocks(raw):
            body = included('\n'.join(body), page.parent).splitlines()
            words = info.split()
            where = f'{rel}:{start}'
            if words[:1] == ['yaml'] and 'fragment' not in words:
                run = subprocess.run([kpg, 'validate', '-'], input='\n'.join(body) + '\n',
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    problems.append(f'{where}: the example does not validate:\n'
                                    + (run.stdout + run.stderr).strip())
            if words[:1] == ['console']:
                problems += console(where, body, kpg)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        sys.exit(f'book: {len(problems)} problem(s) in {out}')
    print(f'book: {len(pages)} pages, every link and example checked')


def console(where, body, kpg):
    """Runs each `$ kpg ...` line from the repository's root and compares its output."""
    problems = []
    i = 0
    while i < len(body):
        if not body[i].startswith('$ '):
            i += 1
            continue
        command = shlex.split(body[i][2:])
        expected = []
        i += 1
        while i < len(body) and not body[i].startswith('$ '):
            expected.append(body[i])
            i += 1
        if command[:1] != ['kpg']:
            continue
        run = subprocess.run([kpg] + command[1:], capture_output=True, text=True, cwd=REPO)
        got = run.stdout.rstrip('\n').splitlines()
        if got != expected:
            diff = next((k for k in range(max(len(got), len(expected)))
                         if k >= len(got) or k >= len(expected) or got[k] != expected[k]), 0)
            problems.append(
                f'{where}: `{" ".join(command)}` prints otherwise, from its line {diff + 1}:\n'
                f'  shown: {expected[diff] if diff < len(expected) else "(nothing)"}\n'
                f'  got:   {got[diff] if diff < len(got) else "(nothing)"}')
    return problems


def main():
    if len(sys.argv) == 5 and sys.argv[1] == 'stage':
        stage(Path(sys.argv[2]), Path(sys.argv[3]), os.path.abspath(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'check':
        check(Path(sys.argv[2]), os.path.abspath(sys.argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
