#!/usr/bin/python3
"""What a screen reader sees: starts the lab window under a display with Qt's AT-SPI bridge on,
reads its accessibility tree over D-Bus with Debian's python3-pyatspi, prints it, and fails when
an interactive widget has no name or the views' workers, lanes and boxes are missing.

Run it under a session bus and a display, for example:
    dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1000x24" \
        python3 tests/accessibility/atspi_tree.py build/app/lockstep
Exit codes: 0 all named, 1 a problem, 77 skipped (no pyatspi or no AT-SPI bus)."""

import os
import subprocess
import sys
import time

try:
    import pyatspi
except ImportError:
    print("skipped: python3-pyatspi is not installed")
    sys.exit(77)

INTERACTIVE = {
    "push button", "toggle button", "check box", "radio button", "combo box", "spin button",
    "text", "slider", "menu item", "check menu item", "radio menu item", "menu", "page tab",
}


def find_app(name, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for app in desktop:
            if app is not None and app.name and name.lower() in app.name.lower():
                return app
        time.sleep(0.5)
    return None


def walk(node, depth, out, limit=4000):
    if node is None or len(out) >= limit:
        return
    try:
        role = node.getRoleName()
        name = node.name or ""
        description = node.description or ""
        value = ""
        try:
            text = node.queryText()
            if role in ("list item",):
                value = ""
        except NotImplementedError:
            pass
        states = node.getState()
        showing = states.contains(pyatspi.STATE_SHOWING)
        out.append((depth, role, name, description, value, showing))
        for i in range(node.childCount):
            walk(node.getChildAtIndex(i), depth + 1, out, limit)
    except Exception as e:  # a node that went away while reading
        out.append((depth, "gone", str(e), "", "", False))


def main():
    program = sys.argv[1] if len(sys.argv) > 1 else "build/app/lockstep"
    env = dict(os.environ, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1",
               LANGUAGE="en", LANG="C.UTF-8")
    lab = subprocess.Popen([program, "--language", "en", "--lesson", "stragglers"], env=env)
    try:
        app = find_app("lockstep")
        if app is None:
            print("skipped: the lab did not appear on the AT-SPI bus")
            return 77
        time.sleep(4)  # the run plays; the views fill in
        nodes = []
        walk(app, 0, nodes)
        problems = []
        roles = {}
        for depth, role, name, description, value, showing in nodes:
            roles[role] = roles.get(role, 0) + 1
            line = "  " * depth + role + (f' "{name}"' if name else "")
            if description:
                line += f" — {description[:90]}"
            if depth <= 12:
                print(line)
            if showing and role in INTERACTIVE and not name.strip():
                problems.append(f"unnamed {role} at depth {depth}")
        workers = [n for n in nodes if n[1] == "list item" and n[2].startswith("Worker ")]
        lanes = [n for n in nodes if n[1] == "list item" and n[2].startswith("Lane of worker")]
        print("\nroles:", ", ".join(f"{r} {c}" for r, c in sorted(roles.items())))
        print(f"workers seen: {len(workers)}, lanes seen: {len(lanes)}")
        if not workers:
            problems.append("the cluster view's workers are not in the tree")
        if not lanes:
            problems.append("the timeline's lanes are not in the tree")
        for p in problems:
            print("problem:", p)
        return 1 if problems else 0
    finally:
        lab.terminate()
        lab.wait(10)


if __name__ == "__main__":
    sys.exit(main())
