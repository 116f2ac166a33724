"""The provider guide's Swift example builds and runs as written (issue 38 item 7).

Specs/provider-guide.md §A whole app, to start from, shows a `Package.swift` and a `main.swift`. This test writes both, unchanged
except the guide's `path: "../AXServer"` (where a reader's clone would be), which becomes this checkout, builds the
package with SwiftPM, runs it against a real server and checks that its views are on screen and its action works.

Build cost: the package has a scratch folder of its own, kept in `.build/provider-guide/` so only the first run is
cold (AXProvider and its dependencies, the figure is printed on stderr); later runs rebuild only the app.
"""
import json
import os
import shutil
import subprocess
import sys
import time
import unittest

from harness import AXQUERY, ROOT, Proc, start_server

GUIDE = os.path.join(ROOT, "Specs", "provider-guide.md")
WORK = os.path.join(ROOT, ".build", "provider-guide")
SWIFT = shutil.which("swift") or "/opt/swift/usr/bin/swift"


def block_after(text, marker):
    """The first ```swift block after `marker` (the guide's "Save this as …" line)."""
    at = text.index(marker)
    start = text.index("```swift\n", at) + len("```swift\n")
    return text[start:text.index("```\n", start)]


class ProviderGuideExample(unittest.TestCase):
    def test_the_guides_swift_example_builds_runs_and_its_action_works(self):
        with open(GUIDE, encoding="utf-8") as f:
            text = f.read()
        manifest = block_after(text, "`Package.swift` in a new folder")
        source = block_after(text, "this as `Sources/KitchenPanel/main.swift`")
        self.assertIn('path: "../AXServer"', manifest, "the guide's manifest no longer names the clone's path")
        self.assertIn("frame:", source)
        package = os.path.join(WORK, "pkg")
        os.makedirs(os.path.join(package, "Sources", "KitchenPanel"), exist_ok=True)
        with open(os.path.join(package, "Package.swift"), "w") as f:
            f.write(manifest.replace('path: "../AXServer"', 'path: %s' % json.dumps(ROOT)))
        with open(os.path.join(package, "Sources", "KitchenPanel", "main.swift"), "w") as f:
            f.write(source)
        scratch = os.path.join(WORK, "build")
        started = time.monotonic()
        build = subprocess.run([SWIFT, "build", "--package-path", package, "--scratch-path", scratch,
                                "--product", "KitchenPanel"], capture_output=True, text=True, timeout=1800)
        seconds = time.monotonic() - started
        sys.stderr.write("provider guide example: swift build %.0f s (%s)\n"
                         % (seconds, "cold" if "Compiling AXJSON" in build.stdout else "incremental"))
        self.assertEqual(build.returncode, 0, build.stdout[-3000:] + build.stderr[-3000:])
        self.assertNotIn("warning:", build.stdout + build.stderr)
        binary = os.path.join(scratch, "debug", "KitchenPanel")
        server, sock, tmp = start_server()
        app = None
        try:
            env = dict(os.environ, NO_COLOR="1")
            env.pop("AXSERVER_SOCKET", None)
            # The app's stdout is a pipe here (block-buffered, its READY line comes late): the server says when
            # it registered instead (app.added, event-driven, bounded).
            added = subprocess.Popen([AXQUERY, "watch", "--events", "app.added", "--json", "--count", "1",
                                      "--timeout", "60s", "--socket", sock], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
            time.sleep(0.3)   # the watch subscribes before the app starts (its first event is the one awaited)
            app = Proc([binary], env=dict(os.environ, AXSERVER_SOCKET=sock))
            out, err = added.communicate(timeout=90)
            self.assertEqual(added.returncode, 0, err)
            self.assertEqual(json.loads(out)["params"]["app"], "kitchen-panel", out)
            waited = subprocess.run([AXQUERY, "wait", 'switch[label="Ceiling"]', "--state", "visible", "--timeout",
                                     "20s", "--socket", sock, "--app", "kitchen-panel"], capture_output=True,
                                    text=True, timeout=60, env=env)
            self.assertEqual(waited.returncode, 0, waited.stdout + waited.stderr)

            def axquery(*args):
                return subprocess.run([AXQUERY, *args, "--socket", sock, "--app", "kitchen-panel"],
                                      capture_output=True, text=True, timeout=30, env=env)
            ceiling = json.loads(axquery("one", 'switch[label="Ceiling"]', "--json").stdout)
            self.assertIn("onscreen", ceiling["states"])             # it has a frame: on screen
            self.assertEqual(ceiling["value"], "off")
            acted = axquery("do", "activate", 'switch[label="Ceiling"]')
            self.assertEqual(acted.returncode, 0, acted.stdout + acted.stderr)
            after = json.loads(axquery("one", 'switch[label="Ceiling"]', "--json").stdout)
            self.assertEqual(after["value"], "on")
        finally:
            if app is not None:
                app.stop()
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
